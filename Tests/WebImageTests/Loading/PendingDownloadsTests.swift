import Foundation
import Testing

@testable import WebImage

/// The downloader's queue of waiting downloads, on its own.
@Suite("Pending downloads queue")
struct PendingDownloadsTests {
    private func operation(_ index: Int) -> DownloadOperation {
        let url = URL(string: "http://127.0.0.1/\(index).png")!
        return DownloadOperation(url: url, key: url.absoluteString, options: [], context: nil) { _ in }
    }

    @Test("Highest priority first; FIFO or LIFO within one; a raise and a removal take effect")
    func order() {
        var queue = PendingDownloads()
        let operations = (0..<5).map(operation)
        for (index, operation) in operations.enumerated() {
            queue.append(operation, priority: index == 4 ? .low : .normal)
        }
        queue.raise(operations[2], to: .high)
        queue.remove(operations[1])
        #expect(queue.count == 4)
        #expect(queue.popNext(lifo: false) === operations[2])
        #expect(queue.popNext(lifo: false) === operations[0])
        #expect(queue.popNext(lifo: true) === operations[3])
        #expect(queue.popNext(lifo: false, ifPriority: .normal) == nil)
        #expect(queue.popNext(lifo: false) === operations[4])
        #expect(queue.popNext(lifo: false) == nil)
        #expect(queue.count == 0)
    }

    @Test("Operations that left the queue (popped, raised past or removed) are not kept alive by it")
    func releasesWhatLeft() {
        var queue = PendingDownloads()
        weak var popped: DownloadOperation?
        weak var removed: DownloadOperation?
        weak var raised: DownloadOperation?
        let waiting = operation(99)
        do {
            let operations = (0..<3).map(operation)
            popped = operations[0]
            removed = operations[1]
            raised = operations[2]
            for operation in operations { queue.append(operation, priority: .normal) }
            queue.append(waiting, priority: .normal)
            queue.raise(operations[2], to: .high)
            queue.remove(operations[1])
            #expect(queue.popNext(lifo: false) === operations[2])
            #expect(queue.popNext(lifo: false) === operations[0])
        }
        // The bucket entries left behind name these operations; they must not own them.
        #expect(popped == nil)
        #expect(removed == nil)
        #expect(raised == nil)
        #expect(queue.count == 1)
        #expect(queue.popNext(lifo: false) === waiting)
    }
}
