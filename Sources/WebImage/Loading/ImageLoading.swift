import Foundation

/// One result of a loader: a partial image while data arrives, or the final image.
public struct ImageLoadResult: Sendable {
    /// The decoded image. Partial results of progressive loading have ``Image/isIncremental`` set.
    public var image: Image
    /// The bytes the image was decoded from; nil for partial results.
    public var data: Data?
    /// What the cache should keep with the data: content type, validators and HTTP freshness
    /// (nil for sources without such headers).
    public var metadata: DiskCacheMetadata?
    /// Whether this is the last result (`finished` in SDWebImage's completion).
    public var isFinished: Bool

    public init(image: Image, data: Data?, metadata: DiskCacheMetadata? = nil, isFinished: Bool) {
        self.image = image
        self.data = data
        self.metadata = metadata
        self.isFinished = isFinished
    }
}

/// Progress of one load: bytes received so far and the expected total (-1 when unknown, as
/// SDWebImage's `expectedSize`), and the URL.
public typealias ImageLoaderProgress = @Sendable (_ receivedSize: Int, _ expectedSize: Int, _ url: URL) -> Void

/// The completion of one load. It runs zero or more times with partial results
/// (`isFinished == false`), then exactly once with a final result or an error — including
/// ``WebImageError/cancelled`` when the operation is cancelled. It never runs after that.
public typealias ImageLoaderCompletion = @Sendable (Result<ImageLoadResult, WebImageError>) -> Void

/// A running load that can be cancelled (SDWebImage's `SDWebImageOperation`).
public protocol ImageLoadingOperation: AnyObject, Sendable {
    /// Ends this caller's load with ``WebImageError/cancelled``. Idempotent. Other callers sharing
    /// the same transfer are not affected.
    func cancel()
    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { get }
}

/// Loads images for URLs (SDWebImage's `SDImageLoader`). ``ImageDownloader`` loads `http(s):`,
/// ``FileImageLoader`` `file:` and ``DataURLImageLoader`` `data:`; ``ImageLoadersManager``
/// chains loaders, and your own can join it.
///
/// Loaders never call back on the caller's thread before returning, and never block it.
public protocol ImageLoading: Sendable {
    /// Whether this loader handles `url` (usually a scheme check).
    func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool
    /// Starts loading `url`. `progress` reports bytes; `completion` gets partial images (with
    /// ``WebImageOptions/progressiveLoad``) and then the final result or error.
    @discardableResult
    func requestImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?,
        progress: ImageLoaderProgress?, completion: @escaping ImageLoaderCompletion
    ) -> any ImageLoadingOperation
    /// Whether a failure of `url` with `error` should put the URL on the manager's failed list.
    func shouldBlockFailedURL(
        _ url: URL, error: WebImageError, options: WebImageOptions, context: WebImageContext?
    ) -> Bool
}

extension ImageLoading {
    /// SDWebImage's rule, which the built-in loaders follow: block only ``WebImageError/invalidURL(_:)``, undecodable data
    /// ``WebImageError/badImageData(_:)`` and non-transient transfer failures (a missing file, a
    /// TLS failure, a redirect loop, an oversized body). Status codes (a 404), cancellation,
    /// timeouts and lost connections are never blocked.
    public func shouldBlockFailedURL(
        _ url: URL, error: WebImageError, options: WebImageOptions, context: WebImageContext?
    ) -> Bool {
        ImageLoaderFailurePolicy.shouldBlock(error)
    }
}

/// The blocklist rule shared by the built-in loaders.
public enum ImageLoaderFailurePolicy {
    /// See ``ImageLoading/shouldBlockFailedURL(_:error:options:context:)``.
    public static func shouldBlock(_ error: WebImageError) -> Bool {
        switch error.code {
        case .invalidURL, .badImageData, .unsupportedFormat: true
        case .transferFailed: error.transferFailure?.isTransient == false
        default: false
        }
    }
}
