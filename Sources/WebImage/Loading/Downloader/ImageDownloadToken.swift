import Foundation
import Synchronization

/// One caller's handle on a download (SDWebImage's `SDWebImageDownloadToken`). Callers of the
/// same URL share one transfer but each gets its own token, progress, completion and decode
/// options; cancelling a token ends only its caller with ``WebImageError/cancelled``, and the
/// transfer stops when the last token is cancelled.
public final class ImageDownloadToken: ImageLoadingOperation {
    private struct State: ~Copyable {
        var completion: ImageLoaderCompletion?
        var progress: ImageLoaderProgress?
        var cancelled = false
        /// Uptime of the last progress callback, for the minimum interval.
        var lastProgress: UInt64 = 0
        var lastReceived = -1
        var lastExpected = -2
    }

    /// Every mutable field sits behind this lock; callbacks are taken out and run outside it.
    private let state: Locked<State>
    /// The shared transfer; nil only for tokens of downloads that never started.
    let operation: DownloadOperation?
    /// How this caller wants the image decoded.
    let decodeOptions: ImageDecodeOptions
    /// The context's coder, or the shared registry.
    let coder: any ImageCoding
    /// Called with the response head (the context's ``WebImageContext/downloadResponseHandler``).
    let responseHandler: ImageDownloadResponseHandler?
    /// For ``ImageDownloader/downloadData(with:options:context:)``: gets the bytes instead of an
    /// image; failures still go to the completion.
    let dataSink: (@Sendable (Data) -> Void)?
    /// Whether the caller gave a progress block (fixed at creation; the block itself goes
    /// away once the caller finished).
    let reportsProgress: Bool

    /// The URL the caller asked for.
    public let url: URL

    init(
        url: URL, operation: DownloadOperation?, decodeOptions: ImageDecodeOptions, coder: any ImageCoding,
        responseHandler: ImageDownloadResponseHandler?, progress: ImageLoaderProgress?,
        completion: @escaping ImageLoaderCompletion, dataSink: (@Sendable (Data) -> Void)? = nil
    ) {
        self.url = url
        self.dataSink = dataSink
        self.operation = operation
        self.decodeOptions = decodeOptions
        self.coder = coder
        self.responseHandler = responseHandler
        reportsProgress = progress != nil
        state = Locked(State(completion: completion, progress: progress))
    }

    /// The request as sent, after the headers filter and request modifier (nil until it starts).
    public var request: ImageDownloadRequest? { operation?.snapshot.request }
    /// The response head, after the response modifier (nil until it arrives).
    public var response: ImageDownloadResponse? { operation?.snapshot.response }
    /// What the transfer measured so far.
    public var metrics: ImageDownloadMetrics { operation?.snapshot.metrics ?? ImageDownloadMetrics() }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Ends this caller with ``WebImageError/cancelled`` unless it already finished; the
    /// transfer goes on for the other callers. Idempotent.
    public func cancel() {
        let completion = state.withLock { state -> ImageLoaderCompletion? in
            state.cancelled = true
            defer {
                state.completion = nil
                state.progress = nil
            }
            return state.completion
        }
        guard let completion else { return }
        operation?.remove(self)
        completion(.failure(.cancelled))
    }

    /// Whether the caller still waits for its terminal result.
    var isWaiting: Bool { state.withLock { $0.completion != nil } }

    /// Reports progress at most once per `interval` seconds; a report with every byte
    /// (`received == expected`), or with nothing yet, always goes through.
    func reportProgress(received: Int, expected: Int, interval: TimeInterval) {
        let now = DispatchTime.now().uptimeNanoseconds
        let progress = state.withLock { state -> ImageLoaderProgress? in
            guard let progress = state.progress else { return nil }
            let due =
                interval <= 0 || received <= 0 || received == expected
                || now &- state.lastProgress >= UInt64(interval * 1_000_000_000)
            guard due, received != state.lastReceived || expected != state.lastExpected else { return nil }
            state.lastProgress = now
            state.lastReceived = received
            state.lastExpected = expected
            return progress
        }
        progress?(received, expected, url)
    }

    /// Delivers a partial result, or the terminal one (a failure or `isFinished`) once.
    func deliver(_ result: Result<ImageLoadResult, WebImageError>) {
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
            }
            return taken
        }
        completion?(result)
    }

    /// Delivers the raw bytes to a ``dataSink`` token, as its terminal result.
    func deliverData(_ data: Data) {
        let waiting = state.withLock { state -> Bool in
            defer {
                state.completion = nil
                state.progress = nil
            }
            return state.completion != nil
        }
        if waiting { dataSink?(data) }
    }
}
