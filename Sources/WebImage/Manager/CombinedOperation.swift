import Foundation

/// One load of the callback API (SDWebImage's `SDWebImageCombinedOperation`): the handle to
/// cancel it. Cancelling is idempotent, thread-safe and final: a cancelled operation never calls
/// back with an image, only with ``WebImageError/cancelled``.
///
/// The load is one task: ``cacheOperation`` and ``loaderOperation`` (SDWebImage's names) say
/// which stage it is in, and cancelling either cancels the whole load.
public final class CombinedOperation: ImageLoadingOperation {
    private struct State {
        var cancelled = false
        var finished = false
        var stage = ImageManager.LoadStage.cache
        var task: Task<Void, Never>?
        var cancelHandlers: [@Sendable () -> Void] = []
    }

    /// Every mutable field sits behind this lock.
    private let state = Locked(State())

    /// The URL being loaded.
    public let url: URL?

    init(url: URL?) {
        self.url = url
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// This operation while the load looks in the caches (memory, disk, the original's
    /// cache), from the call until it moves on to the loader; nil after that, and once the load
    /// ended or was cancelled. Cancelling it cancels the load.
    public var cacheOperation: (any ImageLoadingOperation)? { operation(during: .cache) }

    /// This operation while the load waits for its loader, transform and store; nil before and
    /// once the load ended or was cancelled. Cancelling it cancels the load.
    public var loaderOperation: (any ImageLoadingOperation)? { operation(during: .loader) }

    private func operation(during stage: ImageManager.LoadStage) -> (any ImageLoadingOperation)? {
        state.withLock { $0.stage == stage && !$0.cancelled && !$0.finished } ? self : nil
    }

    /// Records that the load reached `stage` (never backwards: a load that joins a running one
    /// may hear an older stage after a newer one).
    func enter(_ stage: ImageManager.LoadStage) {
        state.withLock { state in state.stage = max(state.stage, stage) }
    }

    /// Stops the load: its task is cancelled and the completion receives
    /// ``WebImageError/cancelled`` (unless it already finished).
    public func cancel() {
        let (task, handlers) = state.withLock { state -> (Task<Void, Never>?, [@Sendable () -> Void]) in
            guard !state.cancelled else { return (nil, []) }
            state.cancelled = true
            defer { state.cancelHandlers = [] }
            return (state.task, state.cancelHandlers)
        }
        task?.cancel()
        for handler in handlers { handler() }
    }

    /// Runs `handler` once when the operation is cancelled, or at once if it already was
    /// (SDWebImage 4's `cancelBlock`). Never runs for a load that finished first.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.cancelled { return true }
            if !state.finished { state.cancelHandlers.append(handler) }
            return false
        }
        if runNow { handler() }
    }

    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            if !state.finished { state.task = task }
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Marks the load finished; returns false if it was cancelled first (then nothing but the
    /// cancellation may be delivered).
    func markFinished() -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.finished = true
            state.task = nil
            state.cancelHandlers = []
            return true
        }
    }
}
