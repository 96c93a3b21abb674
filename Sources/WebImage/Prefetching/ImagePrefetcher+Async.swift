import Foundation

extension ImagePrefetcher {
    /// Prefetches `urls` and returns the counts once every URL ended.
    ///
    /// Cancelling the calling task cancels the prefetch and returns the counts reached so far
    /// (then `finishedCount < totalCount`). `progress` runs as in
    /// ``prefetchURLs(_:options:context:progress:completed:)``.
    public func prefetch(
        _ urls: [URL], options: WebImageOptions = [.lowPriority], context: WebImageContext? = nil,
        progress: (@Sendable (_ finishedCount: Int, _ totalCount: Int) -> Void)? = nil
    ) async -> ImagePrefetchResult {
        let pending = PendingPrefetch()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.setContinuation(continuation)
                let token = prefetchURLs(urls, options: options, context: context, progress: progress) {
                    finished, skipped in
                    pending.resume(
                        ImagePrefetchResult(finishedCount: finished, skippedCount: skipped, totalCount: urls.count))
                }
                if let token { pending.setToken(token) }
            }
        } onCancel: {
            pending.cancel()
        }
    }
}

/// The async prefetch's continuation and token; resumes exactly once.
private final class PendingPrefetch: Sendable {
    private struct State {
        var continuation: CheckedContinuation<ImagePrefetchResult, Never>?
        var token: ImagePrefetchToken?
        var cancelled = false
        var resumed = false
    }
    /// Every field sits behind this lock.
    private let state = Locked(State())

    func setContinuation(_ continuation: CheckedContinuation<ImagePrefetchResult, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func setToken(_ token: ImagePrefetchToken) {
        let cancelled = state.withLock { state in
            state.token = token
            return state.cancelled
        }
        if cancelled { cancel() }
    }

    func resume(_ result: ImagePrefetchResult) {
        let continuation = state.withLock { state -> CheckedContinuation<ImagePrefetchResult, Never>? in
            guard !state.resumed, let continuation = state.continuation else { return nil }
            state.resumed = true
            return continuation
        }
        continuation?.resume(returning: result)
    }

    func cancel() {
        let token = state.withLock { state in
            state.cancelled = true
            return state.token
        }
        guard let token else { return }
        token.cancel()
        resume(
            ImagePrefetchResult(
                finishedCount: token.finishedCount, skippedCount: token.skippedCount, totalCount: token.urls.count))
    }
}
