import Foundation

/// The order in which queued downloads start (SDWebImage's `SDWebImageDownloaderExecutionOrder`).
public enum ImageDownloaderExecutionOrder: Sendable, Equatable {
    /// First in, first out (the default).
    case fifo
    /// Last in, first out: the newest queued download starts next.
    case lifo
}

/// How an ``ImageDownloader`` behaves (SDWebImage's `SDWebImageDownloaderConfig`). The
/// downloader copies it at init; only ``ImageDownloader/maxConcurrentDownloads`` can change later.
public struct ImageDownloaderConfig: Sendable {
    /// SDWebImage's defaults plus ours.
    public static let `default` = ImageDownloaderConfig()

    /// Downloads running at once (default 6). Values below 1 mean 1.
    public var maxConcurrentDownloads = 6
    /// Seconds a download may wait for the next bytes — the response head or a body chunk —
    /// before failing with ``TransferFailure/Kind/timedOut`` (an idle timeout, as URLSession's
    /// `timeoutIntervalForRequest`). Zero, negative and non-finite values mean 15, the default.
    public var downloadTimeout: TimeInterval = 15
    /// Seconds one attempt may take from its request to its last body byte, however steadily
    /// bytes arrive (default 120; as URLSession's `timeoutIntervalForResource`, which defaults
    /// to 7 days). It stops a server that drips a byte now and then, which the idle
    /// ``downloadTimeout`` never catches; it fails with ``TransferFailure/Kind/timedOut``.
    /// nil: no limit. Zero, negative and non-finite values mean 120.
    public var resourceTimeout: TimeInterval? = 120
    /// The least time between two progress callbacks of one caller, clamped to 0…1 s (default 0:
    /// every chunk). The last callback, with all the bytes, is never dropped.
    public var minimumProgressInterval: TimeInterval = 0
    /// FIFO (default) or LIFO among queued downloads of equal priority.
    public var executionOrder: ImageDownloaderExecutionOrder = .fifo
    /// Basic-auth credentials, sent only when the server asks (a 401 with a `Basic` challenge)
    /// and only when both are set.
    public var username: String?
    /// See ``username``.
    public var password: String?
    /// Acceptable HTTP status codes (default 200..<300; SDWebImage's header says 200..<400, its
    /// code uses 200..<300). nil accepts every status.
    public var acceptableStatusCodes: Set<Int>? = Set(200..<300)
    /// Acceptable MIME types (`image/png`, compared without parameters and case). nil (default)
    /// accepts any, including none.
    public var acceptableContentTypes: Set<String>?
    /// Bodies larger than this fail with ``TransferFailure/Kind/responseTooLarge`` — up front from
    /// `Content-Length`, else as soon as the count passes it (default
    /// ``ImageLoaderDecoding/defaultMaxDataSize``). Also bounds gzip/deflate expansion.
    public var maxResponseSize = ImageLoaderDecoding.defaultMaxDataSize
    /// Redirects followed per download (default 10); one more fails with
    /// ``TransferFailure/Kind/tooManyRedirects``. Negative values mean 0.
    public var maxRedirects = 10
    /// Retries of transient failures (default ``ImageDownloadRetryPolicy/none``: no retry).
    public var retryPolicy: ImageDownloadRetryPolicy = .none
    /// Whether each request gets a distributed-tracing span from the tracer bootstrapped with
    /// swift-distributed-tracing, as AsyncHTTPClient makes by default (default false: building
    /// a span and its attributes costs several microseconds per request, a visible share of a
    /// loopback image download, and image requests seldom need one).
    public var tracesRequests = false
    /// Headers sent with every request (default `Accept` and `User-Agent`); change them later
    /// with ``ImageDownloader/setValue(_:forHTTPHeaderField:)``.
    public var httpHeaders: ImageDownloadHeaders = .defaultImageHeaders
    /// Checked before every request is sent, the first and each redirect's, with the URL about
    /// to be requested: throwing (``WebImageError/requestRefused(_:)`` is the one meant for
    /// this) fails the download with that error and sends nothing, and an approval may pin the
    /// address the request connects to (``RequestApproval/connect(to:)``). Ours, for services
    /// that must not reach some addresses: `webimage serve` refuses private ones this way and
    /// connects to exactly the address it checked. Nil (the default) allows every http and
    /// https URL.
    public var requestValidator: (@Sendable (URL) async throws(WebImageError) -> RequestApproval)?

    public init() {}

    /// The timeout in force: ``downloadTimeout``, or 15 s when it is not a positive finite
    /// number; capped at one day so it always converts to nanoseconds.
    var effectiveTimeout: TimeInterval {
        guard downloadTimeout.isFinite, downloadTimeout > 0 else { return 15 }
        return min(downloadTimeout, 86_400)
    }

    /// The overall limit in force: ``resourceTimeout``, 120 s when it is not a positive finite
    /// number, capped at one day; nil when there is none.
    var effectiveResourceTimeout: TimeInterval? {
        guard let resourceTimeout else { return nil }
        guard resourceTimeout.isFinite, resourceTimeout > 0 else { return 120 }
        return min(resourceTimeout, 86_400)
    }

    var effectiveProgressInterval: TimeInterval {
        guard minimumProgressInterval.isFinite else { return 0 }
        return min(max(minimumProgressInterval, 0), 1)
    }

    var effectiveMaxResponseSize: Int { max(maxResponseSize, 0) }
    var effectiveMaxRedirects: Int { max(maxRedirects, 0) }
}
