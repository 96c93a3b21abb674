import Foundation
import Synchronization

/// One load of an ``ImageManager`` (SDWebImage's `SDWebImageCombinedOperation`): the handle to
/// cancel it, and the loader operation it is waiting on. Cancelling is idempotent, thread-safe,
/// and final: a cancelled operation never calls back with an image.
public final class CombinedOperation: ImageLoadingOperation {
    private struct State: ~Copyable {
        var cancelled = false
        var finished = false
        var task: Task<Void, Never>?
        var loaderOperation: (any ImageLoadingOperation)?
        /// The shared run this load joined, and how to leave it.
        var linked: CombinedOperation?
        var leave: (@Sendable () -> Void)?
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

    /// The loader's operation while the load is in the loader (SDWebImage's `loaderOperation`).
    public var loaderOperation: (any ImageLoadingOperation)? {
        let (own, linked) = state.withLock { ($0.loaderOperation, $0.linked) }
        return own ?? linked?.loaderOperation
    }

    /// Stops the load: the cache query or loader operation is cancelled and the completion
    /// receives ``WebImageError/cancelled`` (unless it already finished).
    public func cancel() {
        let (task, loader, leave, handlers) = state.withLock { state in
            if state.cancelled {
                return (
                    nil as Task<Void, Never>?, nil as (any ImageLoadingOperation)?, nil as (@Sendable () -> Void)?,
                    [@Sendable () -> Void]()
                )
            }
            state.cancelled = true
            let handlers = state.cancelHandlers
            state.cancelHandlers = []
            return (state.task, state.loaderOperation, state.leave, handlers)
        }
        leave?()
        loader?.cancel()
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
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Joins a shared run: ``loaderOperation`` shows the run's, and cancelling calls `leave`
    /// (at once, if this operation was already cancelled).
    func link(to shared: CombinedOperation, leave: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.linked = shared
            state.leave = leave
            return state.cancelled
        }
        if cancelled { leave() }
    }

    /// Records the loader's operation; cancels it at once if this operation was already cancelled.
    func setLoaderOperation(_ operation: (any ImageLoadingOperation)?) {
        let cancelled = state.withLock { state in
            state.loaderOperation = operation
            return state.cancelled
        }
        if cancelled { operation?.cancel() }
    }

    /// Marks the load finished; returns false if it was cancelled first (then nothing may be delivered).
    func markFinished() -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.finished = true
            state.loaderOperation = nil
            state.linked = nil
            state.leave = nil
            state.task = nil
            state.cancelHandlers = []
            return true
        }
    }
}
