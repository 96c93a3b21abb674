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
    /// Edits this request before it is sent; wins over the downloader's
    /// ``ImageDownloader/requestModifier`` (`downloadRequestModifier`).
    public var downloadRequestModifier: (any ImageDownloadRequestModifying)?
    /// Edits this response before it is checked; wins over the downloader's
    /// ``ImageDownloader/responseModifier`` (`downloadResponseModifier`).
    public var downloadResponseModifier: (any ImageDownloadResponseModifying)?
    /// Decrypts the downloaded bytes before decoding; wins over the downloader's
    /// ``ImageDownloader/decryptor`` (`downloadDecryptor`).
    public var downloadDecryptor: (any ImageDownloadDecrypting)?
    /// The image already cached for this URL, set by the manager when refreshing
    /// (`loaderCachedImage`); with ``WebImageOptions/refreshCached`` it makes the downloader
    /// revalidate instead of showing partial images.
    public var loaderCachedImage: Image?
    /// The cached entry's metadata, whose validators (`ETag`, `Last-Modified`) make a refresh a
    /// conditional request (ours; SDWebImage leaves this to URLCache).
    public var loaderCachedMetadata: DiskCacheMetadata?
    /// The cached entry's bytes: a refresh that downloads identical bytes ends with
    /// ``WebImageError/cacheNotModified`` (ours; SDWebImage compares with URLCache's copy).
    public var loaderCachedData: Data?
    /// Called with this request's response head as soon as it arrives (ours; seed 002's
    /// per-request response callback).
    public var downloadResponseHandler: ImageDownloadResponseHandler?
    /// Your own keys.
    public var custom: [String: any Sendable] = [:]

    public init() {}
}

/// A context's choice of transformer: a specific one, or none even if the manager has one.
public enum ImageTransformerSetting: Sendable {
    case transformer(any ImageTransforming)
    case disabled
}
