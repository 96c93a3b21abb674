import Foundation

/// One caller's handle on a download in the callback API (SDWebImage's `SDWebImageDownloadToken`).
/// Callers of the same URL share one transfer but each gets its own token, progress, completion
/// and decode options; cancelling a token ends only its caller with ``WebImageError/cancelled``,
/// and the transfer stops when its last caller leaves.
public final class ImageDownloadToken: ImageLoadingOperation {
    private struct State {
        var completion: ImageLoaderCompletion?
        var subscription: ImageDownloader.Decodes.Subscription?
        var cancelled = false
        /// The result was delivered: the subscription is no longer needed (or kept).
        var finished = false
        var report = TransferReport()
    }

    /// Every mutable field sits behind this lock; the completion runs outside it.
    private let state: Locked<State>
    private let listener: DownloadListener

    /// The URL the caller asked for.
    public let url: URL

    init(
        url: URL, interval: TimeInterval, responseHandler: ImageDownloadResponseHandler?,
        progress: ImageLoaderProgress?, completion: @escaping ImageLoaderCompletion
    ) {
        self.url = url
        state = Locked(State(completion: completion))
        // Progress goes to the progress block; partial images go to the completion (see ``handle(_:)``).
        listener = DownloadListener(interval: interval, responseHandler: responseHandler) { event in
            if case .progress(let received, let expected) = event { progress?(received, expected, url) }
        }
    }

    /// The request as sent, after the headers filter and request modifier (nil until it is sent).
    public var request: ImageDownloadRequest? { state.withLock { $0.report.request } }
    /// The response head, after the response modifier (nil until it arrives).
    public var response: ImageDownloadResponse? { state.withLock { $0.report.response } }
    /// What the transfer measured, once it ended.
    public var metrics: ImageDownloadMetrics { state.withLock { $0.report.metrics } }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Ends this caller with ``WebImageError/cancelled`` unless it already finished; the
    /// transfer goes on for the other callers. Idempotent.
    public func cancel() {
        let subscription = state.withLock { state in
            state.cancelled = true
            return state.subscription
        }
        subscription?.cancel()
    }

    func attach(_ subscription: ImageDownloader.Decodes.Subscription) {
        let cancelled = state.withLock { state in
            // A download that failed at once may have finished before it was attached; its
            // subscription holds this token (the event handler), so keeping it would be a cycle.
            guard !state.finished else { return false }
            state.subscription = subscription
            return state.cancelled
        }
        if cancelled { subscription.cancel() }
    }

    /// Records what the transfer says, and hands partial images to the completion.
    func handle(_ event: DownloadEvent) {
        switch event {
        case .request(let request): state.withLock { $0.report.request = request }
        case .responseHead(let response): state.withLock { $0.report.response = response }
        case .partialImage(let image):
            let completion = state.withLock { $0.completion }
            completion?(.success(ImageLoadResult(image: image, data: nil, isFinished: false)))
        case .response, .progress, .bytes, .body: break
        }
        listener.handle(event)
    }

    /// Delivers the terminal result once.
    func finish(_ result: Result<DecodedDownload, WebImageError>) {
        listener.finish()
        let completion = state.withLock { state -> ImageLoaderCompletion? in
            if case .success(let decoded) = result { state.report = decoded.report }
            defer {
                state.finished = true
                state.completion = nil
                state.subscription = nil
            }
            return state.completion
        }
        completion?(result.map(\.result))
    }
}
