import Foundation

/// Hooks into an ``ImageManager``'s decisions (SDWebImage's `SDWebImageManagerDelegate`, plus
/// SDWebImage 4's transform-downloaded-image hook). Every method has a default.
public protocol ImageManagerDelegate: AnyObject, Sendable {
    /// Whether to load `url` after a cache miss. False ends the load with no image and, in the
    /// callback API, no error (as SDWebImage); the async API throws ``WebImageError/notLoaded(_:)``.
    func imageManager(_ manager: ImageManager, shouldDownloadImageFor url: URL) -> Bool
    /// Whether `url` goes on the failed list after `error`; overrides the loader's decision.
    func imageManager(_ manager: ImageManager, shouldBlockFailedURL url: URL, error: WebImageError) -> Bool?
    /// Replaces a freshly loaded image before it is transformed and stored (SDWebImage 4's
    /// `transformDownloadedImage`); not called for cache hits.
    func imageManager(_ manager: ImageManager, transformDownloadedImage image: Image, for url: URL) -> Image
}

extension ImageManagerDelegate {
    public func imageManager(_ manager: ImageManager, shouldDownloadImageFor url: URL) -> Bool { true }
    public func imageManager(_ manager: ImageManager, shouldBlockFailedURL url: URL, error: WebImageError) -> Bool? {
        nil
    }
    public func imageManager(_ manager: ImageManager, transformDownloadedImage image: Image, for url: URL) -> Image {
        image
    }
}
