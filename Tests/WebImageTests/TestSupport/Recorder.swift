import Synchronization

/// Values appended from several tasks, in the order they arrive.
final class Recorder: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}
