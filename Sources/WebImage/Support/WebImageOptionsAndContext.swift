import Foundation

/// SDWebImage's `SDWebImageOptions`: bit `n` here is bit `n` there.
///
/// Flags that only mean something for views (delayPlaceholder, avoidAutoSetImage,
/// forceTransition, avoidAutoCancelImage, waitTransition) are honoured by the binding layer.
/// `continueInBackground` is a documented no-op on Linux (there is no app background state);
/// `avoidDecodeImage` is deprecated in SDWebImage and a no-op here (decoding is always to pixels);
/// `matchAnimatedImageClass` and `transformVectorImage` have no effect until such image classes exist.
public struct WebImageOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Ignore the failed-URL list; a success removes the URL from it.
    public static let retryFailed = WebImageOptions(rawValue: 1 << 0)
    public static let lowPriority = WebImageOptions(rawValue: 1 << 1)
    /// Deliver partial images while downloading.
    public static let progressiveLoad = WebImageOptions(rawValue: 1 << 2)
    /// Call back with the cached image, then revalidate; a second callback only if it changed.
    public static let refreshCached = WebImageOptions(rawValue: 1 << 3)
    public static let continueInBackground = WebImageOptions(rawValue: 1 << 4)
    public static let handleCookies = WebImageOptions(rawValue: 1 << 5)
    public static let allowInvalidSSLCertificates = WebImageOptions(rawValue: 1 << 6)
    public static let highPriority = WebImageOptions(rawValue: 1 << 7)
    public static let delayPlaceholder = WebImageOptions(rawValue: 1 << 8)
    public static let transformAnimatedImage = WebImageOptions(rawValue: 1 << 9)
    public static let avoidAutoSetImage = WebImageOptions(rawValue: 1 << 10)
    /// Decode within ``ImageDecodeOptions/defaultScaleDownLimitBytes``; the cache key is unchanged.
    public static let scaleDownLargeImages = WebImageOptions(rawValue: 1 << 11)
    /// On a memory hit, also read the data from disk.
    public static let queryMemoryData = WebImageOptions(rawValue: 1 << 12)
    public static let queryMemoryDataSync = WebImageOptions(rawValue: 1 << 13)
    public static let queryDiskDataSync = WebImageOptions(rawValue: 1 << 14)
    public static let fromCacheOnly = WebImageOptions(rawValue: 1 << 15)
    public static let fromLoaderOnly = WebImageOptions(rawValue: 1 << 16)
    public static let forceTransition = WebImageOptions(rawValue: 1 << 17)
    public static let avoidDecodeImage = WebImageOptions(rawValue: 1 << 18)
    public static let decodeFirstFrameOnly = WebImageOptions(rawValue: 1 << 19)
    public static let preloadAllFrames = WebImageOptions(rawValue: 1 << 20)
    public static let matchAnimatedImageClass = WebImageOptions(rawValue: 1 << 21)
    /// Complete only after every cache write has finished.
    public static let waitStoreCache = WebImageOptions(rawValue: 1 << 22)
    public static let transformVectorImage = WebImageOptions(rawValue: 1 << 23)
    public static let avoidAutoCancelImage = WebImageOptions(rawValue: 1 << 24)
    public static let waitTransition = WebImageOptions(rawValue: 1 << 25)
}

extension WebImageOptions {
    /// The task priority for ``highPriority`` and ``lowPriority`` (high wins when both are set).
    var taskPriority: TaskPriority { explicitTaskPriority ?? .medium }

    /// The priority of work started for the calling task: ``highPriority`` or ``lowPriority``
    /// when set, else the caller's own, as a child task would inherit it. Work at another
    /// priority than its caller's runs on another of the runtime's thread pools, which adds
    /// threads and context switches for nothing the caller asked for.
    var inheritedTaskPriority: TaskPriority { explicitTaskPriority ?? Task.currentPriority }

    private var explicitTaskPriority: TaskPriority? {
        if contains(.highPriority) { return .high }
        if contains(.lowPriority) { return .low }
        return nil
    }
}

/// Per-request settings (SDWebImage's `SDWebImageContext`), typed instead of a dictionary.
///
/// Every property is optional: nil means "the default"; ``custom`` carries keys of your own.
///
/// SDWebImage keys with no meaning here: `imageForceDecodePolicy` (images are always decoded to
/// pixels), `imageDecodeToHDR` (8-bit RGBA only), `animatedImageClass` (one ``Image`` type) and
/// `customManager` (deprecated there).
///
/// A context is a value: copies share one storage until one of them changes (copy-on-write), so
/// passing it through every layer of a load costs a reference count, not a copy of each field.
public struct WebImageContext: Sendable {
    /// Extra decode options; the individual keys below override them (`imageDecodeOptions`).
    public var imageDecodeOptions: ImageDecodeOptions? {
        get { storage.values.imageDecodeOptions }
        set { update { $0.imageDecodeOptions = newValue } }
    }
    /// The decoded image's scale (`imageScaleFactor`); when absent, `@2x`/`@3x` in the key decide.
    public var imageScaleFactor: Double? {
        get { storage.values.imageScaleFactor }
        set { update { $0.imageScaleFactor = newValue } }
    }
    /// With a thumbnail size: keep the aspect ratio (default true) (`imagePreserveAspectRatio`).
    public var imagePreserveAspectRatio: Bool? {
        get { storage.values.imagePreserveAspectRatio }
        set { update { $0.imagePreserveAspectRatio = newValue } }
    }
    /// Decode no larger than this; changes the cache key (`imageThumbnailPixelSize`).
    public var imageThumbnailPixelSize: PixelSize? {
        get { storage.values.imageThumbnailPixelSize }
        set { update { $0.imageThumbnailPixelSize = newValue } }
    }
    /// Make a thumbnail from the one embedded in the file when it is large enough; see
    /// ``ImageDecodeOptions/decodeEmbeddedThumbnail`` (`imageEmbedThumbnail`).
    public var imageEmbedThumbnail: Bool? {
        get { storage.values.imageEmbedThumbnail }
        set { update { $0.imageEmbedThumbnail = newValue } }
    }
    /// A UTI hint; when absent the key's path extension is the hint (`imageTypeIdentifierHint`).
    public var imageTypeIdentifierHint: String? {
        get { storage.values.imageTypeIdentifierHint }
        set { update { $0.imageTypeIdentifierHint = newValue } }
    }
    /// Byte limit for the decoded image; does not change the cache key (`imageScaleDownLimitBytes`).
    public var imageScaleDownLimitBytes: Int? {
        get { storage.values.imageScaleDownLimitBytes }
        set { update { $0.imageScaleDownLimitBytes = newValue } }
    }
    /// How to encode when the cache must make data from an image (`imageEncodeOptions`).
    public var imageEncodeOptions: ImageEncodeOptions? {
        get { storage.values.imageEncodeOptions }
        set { update { $0.imageEncodeOptions = newValue } }
    }
    /// The coder to use instead of the registry, also for encoding on store (`imageCoder`).
    public var imageCoder: (any ImageCoding)? {
        get { storage.values.imageCoder }
        set { update { $0.imageCoder = newValue } }
    }
    /// Where a query looks (default `.all`) (`queryCacheType`).
    public var queryCacheType: ImageCacheType? {
        get { storage.values.queryCacheType }
        set { update { $0.queryCacheType = newValue } }
    }
    /// Where results are stored (default `.all`); also whether a disk hit is copied to memory
    /// (`storeCacheType`).
    public var storeCacheType: ImageCacheType? {
        get { storage.values.storeCacheType }
        set { update { $0.storeCacheType = newValue } }
    }
    /// Where the untransformed original is looked up (default `.disk`) (`originalQueryCacheType`).
    public var originalQueryCacheType: ImageCacheType? {
        get { storage.values.originalQueryCacheType }
        set { update { $0.originalQueryCacheType = newValue } }
    }
    /// Where the untransformed original is stored (default `.disk`) (`originalStoreCacheType`).
    public var originalStoreCacheType: ImageCacheType? {
        get { storage.values.originalStoreCacheType }
        set { update { $0.originalStoreCacheType = newValue } }
    }
    /// The cache to use instead of the manager's (`imageCache`).
    public var imageCache: (any ImageCaching)? {
        get { storage.values.imageCache }
        set { update { $0.imageCache = newValue } }
    }
    /// Where untransformed originals are looked up and stored (`originalImageCache`); default
    /// ``imageCache``, else the manager's cache.
    public var originalImageCache: (any ImageCaching)? {
        get { storage.values.originalImageCache }
        set { update { $0.originalImageCache = newValue } }
    }
    /// The loader to use instead of the manager's (`imageLoader`).
    public var imageLoader: (any ImageLoading)? {
        get { storage.values.imageLoader }
        set { update { $0.imageLoader = newValue } }
    }
    /// The transformer to use instead of the manager's, or ``ImageTransformerSetting/disabled``
    /// for none (`imageTransformer`; SDWebImage uses `NSNull` for "none").
    public var imageTransformer: ImageTransformerSetting? {
        get { storage.values.imageTransformer }
        set { update { $0.imageTransformer = newValue } }
    }
    /// The cache-key filter to use instead of the manager's (`cacheKeyFilter`).
    public var cacheKeyFilter: (any ImageCacheKeyFiltering)? {
        get { storage.values.cacheKeyFilter }
        set { update { $0.cacheKeyFilter = newValue } }
    }
    /// The cache serializer to use instead of the manager's (`cacheSerializer`).
    public var cacheSerializer: (any ImageCacheSerializing)? {
        get { storage.values.cacheSerializer }
        set { update { $0.cacheSerializer = newValue } }
    }
    /// Where the callback API's completions and progress run (`callbackQueue`). Nil runs them
    /// on the thread that produced the result: Linux processes have no main queue to default to.
    public var callbackQueue: DispatchQueue? {
        get { storage.values.callbackQueue }
        set { update { $0.callbackQueue = newValue } }
    }
    /// The key under which a binding cancels an earlier load for the same target
    /// (`setImageOperationKey`).
    public var setImageOperationKey: String? {
        get { storage.values.setImageOperationKey }
        set { update { $0.setImageOperationKey = newValue } }
    }
    /// Edits this request before it is sent; wins over the downloader's
    /// ``ImageDownloader/requestModifier`` (`downloadRequestModifier`).
    public var downloadRequestModifier: (any ImageDownloadRequestModifying)? {
        get { storage.values.downloadRequestModifier }
        set { update { $0.downloadRequestModifier = newValue } }
    }
    /// Edits this response before it is checked; wins over the downloader's
    /// ``ImageDownloader/responseModifier`` (`downloadResponseModifier`).
    public var downloadResponseModifier: (any ImageDownloadResponseModifying)? {
        get { storage.values.downloadResponseModifier }
        set { update { $0.downloadResponseModifier = newValue } }
    }
    /// Decrypts the downloaded bytes before decoding; wins over the downloader's
    /// ``ImageDownloader/decryptor`` (`downloadDecryptor`).
    public var downloadDecryptor: (any ImageDownloadDecrypting)? {
        get { storage.values.downloadDecryptor }
        set { update { $0.downloadDecryptor = newValue } }
    }
    /// The image already cached for this URL, set by the manager when refreshing
    /// (`loaderCachedImage`); with ``WebImageOptions/refreshCached`` it makes the downloader
    /// revalidate instead of showing partial images.
    public var loaderCachedImage: Image? {
        get { storage.values.loaderCachedImage }
        set { update { $0.loaderCachedImage = newValue } }
    }
    /// The cached entry's metadata, whose validators (`ETag`, `Last-Modified`) make a refresh a
    /// conditional request (ours; SDWebImage leaves this to URLCache).
    public var loaderCachedMetadata: DiskCacheMetadata? {
        get { storage.values.loaderCachedMetadata }
        set { update { $0.loaderCachedMetadata = newValue } }
    }
    /// The cached entry's bytes: a refresh that downloads identical bytes ends with
    /// ``WebImageError/cacheNotModified`` (ours; SDWebImage compares with URLCache's copy).
    public var loaderCachedData: Data? {
        get { storage.values.loaderCachedData }
        set { update { $0.loaderCachedData = newValue } }
    }
    /// Called with this request's response head (status and headers) as soon as it arrives
    /// and passes the downloader's checks; each caller gets its own call, even when callers
    /// share one transfer (ours: SDWebImage has no per-request response callback).
    public var downloadResponseHandler: ImageDownloadResponseHandler? {
        get { storage.values.downloadResponseHandler }
        set { update { $0.downloadResponseHandler = newValue } }
    }
    /// Your own keys.
    public var custom: [String: any Sendable] {
        get { storage.values.custom }
        set { update { $0.custom = newValue } }
    }

    /// A context with every value at its default.
    public init() {
        storage = ContextStorage.empty
    }

    private var storage: ContextStorage

    /// Changes this context's values, first copying them if another context shares them.
    private mutating func update(_ change: (inout ContextValues) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = ContextStorage(storage.values) }
        change(&storage.values)
    }
}

/// The fields of a ``WebImageContext``.
struct ContextValues: Sendable {
    var imageDecodeOptions: ImageDecodeOptions?
    var imageScaleFactor: Double?
    var imagePreserveAspectRatio: Bool?
    var imageThumbnailPixelSize: PixelSize?
    var imageEmbedThumbnail: Bool?
    var imageTypeIdentifierHint: String?
    var imageScaleDownLimitBytes: Int?
    var imageEncodeOptions: ImageEncodeOptions?
    var imageCoder: (any ImageCoding)?
    var queryCacheType: ImageCacheType?
    var storeCacheType: ImageCacheType?
    var originalQueryCacheType: ImageCacheType?
    var originalStoreCacheType: ImageCacheType?
    var imageCache: (any ImageCaching)?
    var originalImageCache: (any ImageCaching)?
    var imageLoader: (any ImageLoading)?
    var imageTransformer: ImageTransformerSetting?
    var cacheKeyFilter: (any ImageCacheKeyFiltering)?
    var cacheSerializer: (any ImageCacheSerializing)?
    var callbackQueue: DispatchQueue?
    var setImageOperationKey: String?
    var downloadRequestModifier: (any ImageDownloadRequestModifying)?
    var downloadResponseModifier: (any ImageDownloadResponseModifying)?
    var downloadDecryptor: (any ImageDownloadDecrypting)?
    var loaderCachedImage: Image?
    var loaderCachedMetadata: DiskCacheMetadata?
    var loaderCachedData: Data?
    var downloadResponseHandler: ImageDownloadResponseHandler?
    var custom: [String: any Sendable] = [:]
}

/// Shared storage of ``WebImageContext`` values.
///
/// `@unchecked Sendable`: `values` is written only through a context that holds the sole
/// reference (`isKnownUniquelyReferenced`), so no other thread can be reading it; shared
/// storage is only ever read. Exclusivity is not checked dynamically for the same reason.
final class ContextStorage: @unchecked Sendable {
    @exclusivity(unchecked) var values: ContextValues

    init(_ values: ContextValues) {
        self.values = values
    }

    /// The storage of every default context, so making one allocates nothing.
    static let empty = ContextStorage(ContextValues())
}

/// A context's choice of transformer: a specific one, or none even if the manager has one.
public enum ImageTransformerSetting: Sendable {
    case transformer(any ImageTransforming)
    case disabled
}
