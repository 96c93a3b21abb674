import Foundation

/// Chooses the bytes the disk cache stores for a loaded image (SDWebImage's
/// `SDWebImageCacheSerializer`). Runs off the caller, once the load has finished.
public protocol ImageCacheSerializing: Sendable {
    /// The data to store for `image`. `originalData` is the downloaded bytes, or nil for
    /// transformed and thumbnail images. Returning nil makes the cache encode the image itself.
    func cacheData(for image: Image, originalData: Data?, url: URL?) -> Data?
}

/// A cache serializer made of a closure.
public struct ImageCacheSerializer: ImageCacheSerializing {
    private let body: @Sendable (Image, Data?, URL?) -> Data?

    public init(_ body: @escaping @Sendable (Image, Data?, URL?) -> Data?) {
        self.body = body
    }

    public func cacheData(for image: Image, originalData: Data?, url: URL?) -> Data? {
        body(image, originalData, url)
    }
}
