import Foundation
import Synchronization

/// One incremental decoder per progressive decode: partial decodes run off the receiving task, at most
/// one at a time, each on the newest bytes offered (bytes arriving while one runs are decoded
/// next), and none is delivered after ``close()`` returns.
final class ProgressiveDecodeDriver: Sendable {
    typealias Delivery = @Sendable (Image) -> Void

    /// The decoder is not thread-safe; it is only used under this lock.
    private let decoder: Locked<any IncrementalImageDecoding>
    /// The newest bytes offered, their delivery, and a count of offers; behind this lock.
    private let offered = Locked<(data: Data, deliver: Delivery, number: Int)?>(nil)
    private let busy = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    /// Set once ``close()`` has waited for the last decode: nothing is delivered after it.
    private let finished = Atomic<Bool>(false)
    private let lastTask = Locked<Task<Void, Never>?>(nil)

    init(coder: any ProgressiveImageCoding, options: ImageDecodeOptions) {
        decoder = Locked(coder.makeIncrementalDecoder(options: options))
    }

    /// Makes `data` the bytes of the next partial decode, and starts one unless one is running
    /// or the driver was stopped; its image goes to `deliver`. A decode that starts late (a busy
    /// machine) decodes the newest bytes by then, not the ones of the offer that started it. A
    /// decode that has started delivers even if the driver stops meanwhile: ``close()`` waits
    /// for it, so it still comes before the final result.
    func offer(_ data: Data, deliver: @escaping Delivery) {
        guard !closed.load(ordering: .acquiring) else { return }
        offered.withLock { offered in offered = (data, deliver, (offered?.number ?? 0) + 1) }
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        // Off the receiving task, so a slow partial decode never holds the body back, and on
        // the CPU threads, so that it never holds a thread the network needs.
        let task = Task(executorPreference: ThreadPoolExecutor.cpu, priority: Task.currentPriority) { [self] in
            var decoded = 0
            repeat {
                while let (data, deliver, number) = offered.withLock({ offered in
                    offered.flatMap { $0.number != decoded ? $0 : nil }
                }) {
                    decoded = number
                    decode(data, deliver: deliver)
                    if closed.load(ordering: .acquiring) { break }
                }
                busy.store(false, ordering: .releasing)
                // An offer that came after the last look but before `busy` cleared found the
                // driver busy: take it up here rather than leave its bytes undecoded.
            } while !closed.load(ordering: .acquiring)
                && offered.withLock({ $0?.number ?? decoded }) != decoded
                && busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        }
        lastTask.withLock { $0 = task }
    }

    private func decode(_ data: Data, deliver: Delivery) {
        let image = decoder.withLock { decoder -> Image? in
            decoder.update(data, isFinal: false)
            return try? decoder.currentImage()
        }
        guard var image, image.width > 0, image.height > 0, !finished.load(ordering: .acquiring) else { return }
        image.isIncremental = true
        deliver(image)
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
