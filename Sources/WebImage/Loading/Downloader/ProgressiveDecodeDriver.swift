import Foundation
import Synchronization

/// One incremental decoder per download: partial decodes run off the receiving task, at most
/// one at a time (bytes arriving while one runs are picked up by the next), and none is
/// delivered after ``close()``.
final class ProgressiveDecodeDriver: Sendable {
    /// The decoder is not thread-safe; it is only used under this lock.
    private let decoder: Locked<any IncrementalImageDecoding>
    private let busy = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    private let lastTask = Locked<Task<Void, Never>?>(nil)

    init(coder: any ProgressiveImageCoding, options: ImageDecodeOptions) {
        decoder = Locked(coder.makeIncrementalDecoder(options: options))
    }

    /// Starts a partial decode of `data` unless one is running; its image goes to every caller
    /// of `operation` still waiting.
    func offer(_ data: Data, to operation: DownloadOperation) {
        guard !closed.load(ordering: .acquiring),
            busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let task = Task.detached(priority: Task.currentPriority) { [self] in
            defer { busy.store(false, ordering: .releasing) }
            let image = decoder.withLock { decoder -> Image? in
                decoder.update(data, isFinal: false)
                return try? decoder.currentImage()
            }
            guard var image, image.width > 0, image.height > 0, !closed.load(ordering: .acquiring) else { return }
            image.isIncremental = true
            let partial = ImageLoadResult(image: image, data: nil, isFinished: false)
            for token in operation.tokens { token.deliver(.success(partial)) }
        }
        lastTask.withLock { $0 = task }
    }

    /// Stops partial decodes and waits for the running one, so that no partial image can
    /// follow the final result.
    func close() async {
        closed.store(true, ordering: .releasing)
        let task = lastTask.withLock { $0 }
        await task?.value
    }
}
