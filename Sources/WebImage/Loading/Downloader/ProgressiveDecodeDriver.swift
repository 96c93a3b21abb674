import Foundation
import Synchronization

/// One incremental decoder per progressive decode: partial decodes run off the receiving task, at most
/// one at a time (bytes arriving while one runs are picked up by the next), and none is
/// delivered after ``close()`` returns.
final class ProgressiveDecodeDriver: Sendable {
    /// The decoder is not thread-safe; it is only used under this lock.
    private let decoder: Locked<any IncrementalImageDecoding>
    private let busy = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    /// Set once ``close()`` has waited for the last decode: nothing is delivered after it.
    private let finished = Atomic<Bool>(false)
    private let lastTask = Locked<Task<Void, Never>?>(nil)

    init(coder: any ProgressiveImageCoding, options: ImageDecodeOptions) {
        decoder = Locked(coder.makeIncrementalDecoder(options: options))
    }

    /// Starts a partial decode of `data` unless one is running or the driver was stopped; its
    /// image goes to `deliver`. A decode that has started delivers even if the driver stops
    /// meanwhile: ``close()`` waits for it, so it still comes before the final result, and a
    /// busy machine that runs it late still shows a partial image.
    func offer(_ data: Data, deliver: @escaping @Sendable (Image) -> Void) {
        guard !closed.load(ordering: .acquiring),
            busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        // Off the receiving task, so a slow partial decode never holds the body back.
        let task = Task(priority: Task.currentPriority) { [self] in
            defer { busy.store(false, ordering: .releasing) }
            let image = decoder.withLock { decoder -> Image? in
                decoder.update(data, isFinal: false)
                return try? decoder.currentImage()
            }
            guard var image, image.width > 0, image.height > 0, !finished.load(ordering: .acquiring) else { return }
            image.isIncremental = true
            deliver(image)
        }
        lastTask.withLock { $0 = task }
    }

    /// Starts no partial decode from now on (one running may still deliver until ``close()``).
    func stop() {
        closed.store(true, ordering: .releasing)
    }

    /// Stops partial decodes and waits for the running one, so that no partial image can
    /// follow the final result.
    func close() async {
        stop()
        let task = lastTask.withLock { $0 }
        await task?.value
        finished.store(true, ordering: .releasing)
    }
}
