import Foundation

/// One call of ``ImagePrefetcher/prefetchURLs(_:options:context:progress:completed:)``
/// (SDWebImage's `SDWebImagePrefetchToken`): its URLs, its counts, and the way to cancel it.
public final class ImagePrefetchToken: Sendable {
    struct State {
        var finished = 0
        var skipped = 0
        var cancelled = false
        var progress: (@Sendable (_ finishedCount: Int, _ totalCount: Int) -> Void)?
        var completed: (@Sendable (_ finishedCount: Int, _ skippedCount: Int) -> Void)?
        /// One job per URL, queued, running or ended.
        var jobs: [PrefetchJob] = []
    }

    /// The URLs this token prefetches, in order.
    public let urls: [URL]
    let options: WebImageOptions
    let context: WebImageContext?
    /// Where this token's blocks (and the delegate) run.
    let callbackQueue: DispatchQueue
    /// Every mutable field sits behind this lock (taken after the prefetcher's, never before).
    let state: Locked<State>
    private let prefetcher: ImagePrefetcher

    init(
        urls: [URL], options: WebImageOptions, context: WebImageContext?, callbackQueue: DispatchQueue,
        prefetcher: ImagePrefetcher, progress: (@Sendable (Int, Int) -> Void)?,
        completed: (@Sendable (Int, Int) -> Void)?
    ) {
        self.urls = urls
        self.options = options
        self.context = context
        self.callbackQueue = callbackQueue
        self.prefetcher = prefetcher
        state = Locked(State(progress: progress, completed: completed))
    }

    /// URLs that finished so far, loaded or not.
    public var finishedCount: Int { state.withLock { $0.finished } }

    /// URLs that failed or were cancelled so far.
    public var skippedCount: Int { state.withLock { $0.skipped } }

    /// Whether ``cancel()`` (or ``ImagePrefetcher/cancelPrefetching()``) was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the queued and running loads of this token and drops its progress and completion
    /// blocks without calling them. Other tokens are unaffected. Idempotent.
    public func cancel() { prefetcher.cancel(self) }

    /// Marks the token cancelled and returns its jobs; nil if it already was.
    func markCancelled() -> [PrefetchJob]? {
        state.withLock { state in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            state.progress = nil
            state.completed = nil
            defer { state.jobs = [] }
            return state.jobs
        }
    }
}

/// One URL of a token on its way: waiting for a slot, then through the manager.
final class PrefetchJob: Sendable {
    private struct State {
        var ticket: SlotQueue.Ticket?
        var operation: CombinedOperation?
        var ended = false
    }

    let token: ImagePrefetchToken
    let index: Int
    var url: URL { token.urls[index] }
    /// Every mutable field sits behind this lock.
    private let state = Locked(State())

    init(token: ImagePrefetchToken, index: Int) {
        self.token = token
        self.index = index
    }

    /// Records the job's place in line.
    func queued(_ ticket: SlotQueue.Ticket) {
        state.withLock { $0.ticket = ticket }
    }

    /// Records the manager's operation; cancels it if the token was cancelled meanwhile.
    func attach(_ operation: CombinedOperation) {
        let keep = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            state.operation = operation
            return true
        }
        if keep, token.isCancelled { operation.cancel() }
    }

    /// Takes the job out of `queue`'s line if it still waits there, else cancels its load.
    func cancel(leaving queue: SlotQueue) {
        let (ticket, operation) = state.withLock { ($0.ticket, $0.operation) }
        if let ticket, queue.leave(ticket) { return }
        operation?.cancel()
    }

    /// True the first time only: a refresh can complete twice, a job ends once.
    func end() -> Bool {
        state.withLock { state in
            guard !state.ended else { return false }
            state.ended = true
            state.operation = nil
            state.ticket = nil
            return true
        }
    }
}
