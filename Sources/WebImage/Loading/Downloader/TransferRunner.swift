import Synchronization

/// Starts the task that runs a downloader's transfers one after another, and hands the body
/// its own handle: an operation records it so that cancelling the operation's last caller
/// cancels the running transfer.
final class TransferRunner: Sendable {
    private let handle = Locked<Task<Void, Never>?>(nil)

    private init() {}

    static func start(priority: TaskPriority, _ body: @escaping @Sendable (Task<Void, Never>) async -> Void) {
        let runner = TransferRunner()
        runner.handle.withLock { handle in
            handle = Task.detached(priority: priority) {
                // Waits for the assignment, which holds the lock while the task is made.
                guard let own = runner.handle.withLock({ $0 }) else { return }
                await body(own)
            }
        }
    }
}
