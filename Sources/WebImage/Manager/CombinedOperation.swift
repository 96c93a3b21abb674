import Foundation

/// One load of the callback API (SDWebImage's `SDWebImageCombinedOperation`): the handle to
/// cancel it. Cancelling is idempotent, thread-safe and final: a cancelled operation never calls
/// back with an image, only with ``WebImageError/cancelled``.
///
/// SDWebImage's `cacheOperation` and `loaderOperation` have no counterpart: the load is one
/// task, and cancelling this operation cancels whatever stage it is in.
public final class CombinedOperation: ImageLoadingOperation {
    private struct State {
        var cancelled = false
        var finished = false
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
