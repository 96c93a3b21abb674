import Foundation

/// Per-request settings (SDWebImage's `SDWebImageContext`), typed instead of a dictionary.
///
/// Every property is optional: nil means "the default"; ``custom`` carries keys of your own.
///
/// SDWebImage keys with no meaning here: `imageForceDecodePolicy` (images are always decoded to
/// pixels), `imageDecodeToHDR` (8-bit RGBA only), `animatedImageClass` (one ``Image`` type) and
/// `customManager` (deprecated there).
public struct WebImageContext: Sendable {
    /// Extra decode options; the individual keys below override them (`imageDecodeOptions`).
    public var imageDecodeOptions: ImageDecodeOptions?
    /// The decoded image's scale (`imageScaleFactor`); when absent, `@2x`/`@3x` in the key decide.
    public var imageScaleFactor: Double?
    /// With a thumbnail size: keep the aspect ratio (default true) (`imagePreserveAspectRatio`).
    public var imagePreserveAspectRatio: Bool?
    /// Decode no larger than this; changes the cache key (`imageThumbnailPixelSize`).
    public var imageThumbnailPixelSize: PixelSize?
    /// A UTI hint; when absent the key's path extension is the hint (`imageTypeIdentifierHint`).
    public var imageTypeIdentifierHint: String?
    /// Byte limit for the decoded image; does not change the cache key (`imageScaleDownLimitBytes`).
    public var imageScaleDownLimitBytes: Int?
    /// How to encode when the cache must make data from an image (`imageEncodeOptions`).
    public var imageEncodeOptions: ImageEncodeOptions?
    /// The coder to use instead of the registry, also for encoding on store (`imageCoder`).
    public var imageCoder: (any ImageCoding)?
    /// Where a query looks (default `.all`) (`queryCacheType`).
    public var queryCacheType: ImageCacheType?
    /// Where results are stored (default `.all`); also whether a disk hit is copied to memory
    /// (`storeCacheType`).
    public var storeCacheType: ImageCacheType?
    /// Where the untransformed original is looked up (default `.disk`) (`originalQueryCacheType`).
    public var originalQueryCacheType: ImageCacheType?
    /// Where the untransformed original is stored (default `.disk`) (`originalStoreCacheType`).
    public var originalStoreCacheType: ImageCacheType?
    /// The cache to use instead of the manager's (`imageCache`).
    public var imageCache: (any ImageCaching)?
    /// Where untransformed originals are looked up and stored (`originalImageCache`); default
    /// ``imageCache``, else the manager's cache.
    public var originalImageCache: (any ImageCaching)?
    /// The loader to use instead of the manager's (`imageLoader`).
    public var imageLoader: (any ImageLoading)?
    /// The transformer to use instead of the manager's, or ``ImageTransformerSetting/disabled``
    /// for none (`imageTransformer`; SDWebImage uses `NSNull` for "none").
    public var imageTransformer: ImageTransformerSetting?
    /// The cache-key filter to use instead of the manager's (`cacheKeyFilter`).
    public var cacheKeyFilter: (any ImageCacheKeyFiltering)?
    /// The cache serializer to use instead of the manager's (`cacheSerializer`).
    public var cacheSerializer: (any ImageCacheSerializing)?
    /// Where the callback API's completions and progress run (`callbackQueue`). Nil runs them
    /// on the thread that produced the result: Linux processes have no main queue to default to.
    public var callbackQueue: DispatchQueue?
    /// The key under which a binding cancels an earlier load for the same target
    /// (`setImageOperationKey`).
    public var setImageOperationKey: String?
    /// The cached image a ``WebImageOptions/refreshCached`` load revalidates (`loaderCachedImage`);
    /// the manager sets it.
    public var loaderCachedImage: Image?
    /// The cache entry's validators and freshness, for a conditional request (ours); the manager sets it.
    public var loaderCachedMetadata: DiskCacheMetadata?
    /// The cached bytes; a download with identical bytes is ``WebImageError/cacheNotModified`` (ours).
    public var loaderCachedData: Data?
    /// Your own keys.
    public var custom: [String: any Sendable] = [:]

    public init() {}
}

/// A context's choice of transformer: a specific one, or none even if the manager has one.
public enum ImageTransformerSetting: Sendable {
    case transformer(any ImageTransforming)
    case disabled
}
