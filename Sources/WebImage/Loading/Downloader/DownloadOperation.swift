import Foundation
import Synchronization

/// One transfer shared by every caller of a URL (SDWebImage's `SDWebImageDownloaderOperation`).
///
/// Lock order: the downloader's lock, then this one. Callbacks never run under either.
final class DownloadOperation: Sendable {
    /// What tokens can read about the transfer.
    struct Snapshot: Sendable {
        var request: ImageDownloadRequest?
        var response: ImageDownloadResponse?
        var metrics = ImageDownloadMetrics()
    }

    enum Phase {
        /// Waiting in the downloader's queue.
        case queued
        /// Transferring; new callers join.
        case running
        /// The transfer ended (its callers are being served) or every caller left: a new
        /// caller needs a new operation, as a finished SDWebImage operation is never joined.
        case closed
    }

    private struct State {
        var tokens: [ImageDownloadToken] = []
        var phase = Phase.queued
        var task: Task<Void, Never>?
        var snapshot = Snapshot()
    }

    private let state = Locked(State())
    /// Whether any caller ever gave a progress block: without one, receiving a chunk skips
    /// the per-caller progress pass.
    private let progressObserved = Atomic<Bool>(false)
    /// The URL the callers asked for.
    let url: URL
    /// Its `absoluteString`, the coalescing key (worked out once: it is not free).
    let key: String
    /// The first caller's options and context shape the request (as in SDWebImage).
    let options: ImageDownloaderOptions
    let context: WebImageContext?
    /// The priority of the task that runs the transfer: high and low downloads get those; a
    /// normal one inherits its first caller's, as an unstructured task would (so a busy caller
    /// and its downloads share one pool of threads).
    let taskPriority: TaskPriority
    /// Told when the last caller leaves before the transfer started.
    private let onCancelWhileQueued: @Sendable (DownloadOperation) -> Void

    init(
        url: URL, key: String, options: ImageDownloaderOptions, context: WebImageContext?,
        onCancelWhileQueued: @escaping @Sendable (DownloadOperation) -> Void
    ) {
        self.url = url
        self.key = key
        self.options = options
        self.context = context
        taskPriority = options.queuePriority == .normal ? Task.currentPriority : options.queuePriority.taskPriority
        self.onCancelWhileQueued = onCancelWhileQueued
    }

    /// Whether a caller with `options` and `context` asks the server the same question as this
    /// transfer, and so may share it: both plain requests, or both revalidations with the same
    /// validators and cached bytes. A plain caller that joined a revalidation could get
    /// `cacheNotModified` for an image it does not have; a revalidating caller that joined a
    /// plain transfer would never hear that nothing changed.
    func asksSameQuestion(options: ImageDownloaderOptions, context: WebImageContext?) -> Bool {
        let revalidates = options.contains(.ignoreCachedResponse)
        guard revalidates == self.options.contains(.ignoreCachedResponse) else { return false }
        guard revalidates else { return true }
        let validators = ImageDownloadConditionalRequest.headers(for: context?.loaderCachedMetadata)
        let ours = ImageDownloadConditionalRequest.headers(for: self.context?.loaderCachedMetadata)
        return validators.elementsEqual(ours, by: ==) && context?.loaderCachedData == self.context?.loaderCachedData
    }

    /// Adds a caller; false once the operation closed (the caller then needs a new one).
    func tryAdd(_ token: ImageDownloadToken) -> Bool {
        state.withLock { state in
            guard state.phase != .closed else { return false }
            state.tokens.append(token)
            if token.reportsProgress { progressObserved.store(true, ordering: .relaxed) }
            return true
        }
    }

    /// Whether progress reports can reach anyone.
    var isProgressObserved: Bool { progressObserved.load(ordering: .relaxed) }

    /// Removes a cancelled caller; the last one out stops the transfer.
    func remove(_ token: ImageDownloadToken) {
        let (task, wasQueued) = state.withLock { state -> (Task<Void, Never>?, Bool) in
            state.tokens.removeAll { $0 === token }
            guard state.tokens.isEmpty, state.phase != .closed else { return (nil, false) }
            let wasQueued = state.phase == .queued
            state.phase = .closed
            defer { state.task = nil }
            return (state.task, wasQueued)
        }
        task?.cancel()
        if wasQueued { onCancelWhileQueued(self) }
    }

    /// Cancels the running transfer's task without ending any caller: the idle timeout's way
    /// to interrupt it (the transfer then ends every caller with the timeout).
    func interruptTransfer() {
        state.withLock { $0.task }?.cancel()
    }

    /// Cancels every caller (each gets ``WebImageError/cancelled``), which stops the transfer.
    func cancelAll() {
        for token in tokens { token.cancel() }
    }

    /// The callers still attached.
    var tokens: [ImageDownloadToken] { state.withLock { $0.tokens } }

    var snapshot: Snapshot { state.withLock { $0.snapshot } }

    func updateSnapshot(_ body: (inout Snapshot) -> Void) {
        state.withLock { body(&$0.snapshot) }
    }

    /// Marks the transfer as running in `task` (which cancelling the last caller cancels);
    /// false if every caller left while it was queued.
    func begin(in task: Task<Void, Never>) -> Bool {
        state.withLock { state in
            guard state.phase == .queued else { return false }
            state.phase = .running
            state.task = task
            return true
        }
    }

    /// Closes the operation and returns the callers still attached: from now on a new caller
    /// gets a fresh transfer, never this one's finished result.
    func closeAndTakeTokens() -> [ImageDownloadToken] {
        state.withLock { state in
            defer {
                state.phase = .closed
                state.tokens = []
                state.task = nil
            }
            return state.tokens
        }
    }
}

extension DownloadPriority {
    var taskPriority: TaskPriority {
        switch self {
        case .high: .high
        case .normal: .medium
        case .low: .low
        }
    }
}
