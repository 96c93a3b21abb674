import Foundation
import Synchronization

/// The operation the built-in local loaders return: it owns one caller's callbacks and makes
/// sure the completion's terminal call happens exactly once — the result, or
/// ``WebImageError/cancelled`` if ``cancel()`` came first.
public final class ImageLoaderToken: ImageLoadingOperation {
    private struct State: ~Copyable {
        var completion: ImageLoaderCompletion?
        var progress: ImageLoaderProgress?
        var task: Task<Void, Never>?
        var cancelled = false
    }

    /// Every mutable field sits behind this lock; callbacks are taken out and run outside it.
    private let state: Locked<State>

    /// The URL being loaded.
    public let url: URL

    /// A token that will report to `completion` and `progress`.
    public init(url: URL, progress: ImageLoaderProgress?, completion: @escaping ImageLoaderCompletion) {
        self.url = url
        state = Locked(State(completion: completion, progress: progress))
    }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Calls the completion with ``WebImageError/cancelled`` (unless it already finished) and
    /// cancels the work attached with ``attach(_:)``.
    public func cancel() {
        let (completion, task) = state.withLock { state in
            state.cancelled = true
            let taken = (state.completion, state.task)
            state.completion = nil
            state.progress = nil
            state.task = nil
            return taken
        }
        task?.cancel()
        completion?(.failure(.cancelled))
    }

    /// Ties `task` to this token: cancelling the token cancels the task (at once, if the token
    /// is already cancelled).
    public func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.task = task }
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Reports progress, unless the token finished or was cancelled.
    public func reportProgress(received: Int, expected: Int) {
        state.withLock { $0.progress }?(received, expected, url)
    }

    /// Delivers a partial result, or the terminal one (a failure or `isFinished`), once.
    public func deliver(_ result: Result<ImageLoadResult, WebImageError>) {
        let isTerminal: Bool
        switch result {
        case .success(let value): isTerminal = value.isFinished
        case .failure: isTerminal = true
        }
        let completion = state.withLock { state -> ImageLoaderCompletion? in
            let taken = state.completion
            if isTerminal {
                state.completion = nil
                state.progress = nil
                state.task = nil
            }
            return taken
        }
        completion?(result)
    }

    /// A token whose load is `work`, run in a detached task at the options' priority; its
    /// result (or error) is delivered once, unless the token is cancelled first.
    public static func run(
        url: URL, options: WebImageOptions, progress: ImageLoaderProgress?, completion: @escaping ImageLoaderCompletion,
        _ work: @escaping @Sendable (ImageLoaderToken) throws(WebImageError) -> ImageLoadResult
    ) -> ImageLoaderToken {
        let token = ImageLoaderToken(url: url, progress: progress, completion: completion)
        token.attach(
            Task.detached(priority: options.taskPriority) {
                token.deliver(Result { () throws(WebImageError) in try work(token) })
            })
        return token
    }
}
