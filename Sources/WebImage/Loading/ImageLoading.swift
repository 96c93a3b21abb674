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

/// What a loader reports while it works, before its result.
public enum ImageLoadEvent: Sendable {
    /// Bytes received so far and the expected total (-1 when unknown, as SDWebImage's `expectedSize`).
    case progress(receivedSize: Int, expectedSize: Int)
    /// A partial image of progressive loading (``Image/isIncremental`` set).
    case partialImage(Image)
}

/// Where a loader sends its ``ImageLoadEvent``s; called on whichever thread produced them. For
/// ``ImageDownloader``, progress comes from the event loop that reads the response: keep the
/// handler short and never block in it (hand longer work to a task).
public typealias ImageLoadEventHandler = @Sendable (ImageLoadEvent) -> Void

/// Loads images for URLs (SDWebImage's `SDImageLoader`). ``ImageDownloader`` loads `http(s):`,
/// ``FileImageLoader`` `file:` and ``DataURLImageLoader`` `data:`; ``ImageLoadersManager``
/// chains loaders, and your own can join it.
///
/// A loader is an async function: cancelling the calling task cancels the load, which then
/// throws ``WebImageError/cancelled``. ``requestImage(with:options:context:progress:completion:)``
/// gives every loader SDWebImage's callback shape on top of it.
public protocol ImageLoading: Sendable {
    /// Whether this loader handles `url` (usually a scheme check).
    func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool
    /// Loads `url` and returns the final image; progress and partial images (with
    /// ``WebImageOptions/progressiveLoad``) go to `events` meanwhile, never after the return.
    func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult
    /// Whether a failure of `url` with `error` should put the URL on the manager's failed list.
    func shouldBlockFailedURL(
        _ url: URL, error: WebImageError, options: WebImageOptions, context: WebImageContext?
    ) -> Bool
}

extension ImageLoading {
    /// SDWebImage's rule, which the built-in loaders follow: block only an invalid URL,
    /// undecodable data (``WebImageError/Code/badImageData``, ``WebImageError/Code/unsupportedFormat``)
    /// and non-transient transfer failures (a missing file, a TLS failure, a redirect loop, an
    /// oversized body). Status codes (a 404), cancellation, timeouts and lost connections are
    /// never blocked.
    public func shouldBlockFailedURL(
        _ url: URL, error: WebImageError, options: WebImageOptions, context: WebImageContext?
    ) -> Bool {
        ImageLoaderFailurePolicy.shouldBlock(error)
    }

    /// Loads `url` without reporting progress.
    public func loadImage(
        with url: URL, options: WebImageOptions = [], context: WebImageContext? = nil
    ) async throws(WebImageError) -> ImageLoadResult {
        try await loadImage(with: url, options: options, context: context, events: nil)
    }
}

/// The blocklist rule of the built-in loaders.
enum ImageLoaderFailurePolicy {
    /// See ``ImageLoading/shouldBlockFailedURL(_:error:options:context:)``.
    static func shouldBlock(_ error: WebImageError) -> Bool {
        switch error.code {
        case .invalidURL, .badImageData, .unsupportedFormat: true
        case .transferFailed: error.transferFailure?.isTransient == false
        default: false
        }
    }
}
