import Foundation

/// A finished load of an ``ImageManager``.
public struct ImageManagerResult: Sendable {
    /// The image: decoded, and transformed when a transformer applied.
    public var image: Image
    /// The bytes the image came from; nil for transformed and thumbnail images, and for memory
    /// hits without ``WebImageOptions/queryMemoryData``.
    public var data: Data?
    /// Where it came from: `.memory`, `.disk`, or `.none` for a load.
    public var cacheType: ImageCacheType
    /// The URL that was requested.
    public var url: URL

    public init(image: Image, data: Data?, cacheType: ImageCacheType, url: URL) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.url = url
    }
}

/// What a load reports, in order, through ``ImageManager/imageEvents(with:options:context:)``.
public enum ImageManagerEvent: Sendable {
    /// Bytes received so far and the expected total (-1 when unknown).
    case progress(receivedSize: Int, expectedSize: Int)
    /// A partial image while data arrives (``WebImageOptions/progressiveLoad``); never cached.
    case partialImage(Image)
    /// With ``WebImageOptions/refreshCached``: the cached image, delivered before the
    /// revalidation. A ``finished(_:)`` with the new image follows only if the image changed.
    case cachedImage(ImageManagerResult)
    /// The final result; the stream ends after it.
    case finished(ImageManagerResult)
}

/// The callback API's completion (SDWebImage's `SDInternalCompletionBlock`): image, data, error,
/// cache type, finished, URL.
///
/// With ``WebImageOptions/refreshCached`` it can run **twice** with `finished == true`: first with
/// the cached image, then with the refreshed one (only if it changed). Code that pairs one call
/// with one `DispatchGroup.enter()` must account for that; the async API cannot fall into it.
public typealias ImageManagerCompletion =
    @Sendable (
        _ image: Image?, _ data: Data?, _ error: WebImageError?, _ cacheType: ImageCacheType, _ finished: Bool,
        _ url: URL?
    ) ->
    Void
