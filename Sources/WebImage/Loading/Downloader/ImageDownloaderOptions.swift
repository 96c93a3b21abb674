/// Options of one download (SDWebImage's `SDWebImageDownloaderOptions`: bit `n` here is bit `n`
/// there). ``ImageDownloader`` derives them from ``WebImageOptions`` when used as an
/// ``ImageLoading``.
public struct ImageDownloaderOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Queued after normal and high-priority downloads.
    public static let lowPriority = ImageDownloaderOptions(rawValue: 1 << 0)
    /// Deliver partial images while the bytes arrive (ignored with a decryptor).
    public static let progressiveLoad = ImageDownloaderOptions(rawValue: 1 << 1)
    /// SDWebImage lets URLCache answer; there is no HTTP cache under the downloader, so it is a
    /// documented no-op (the image cache is the cache).
    public static let useNSURLCache = ImageDownloaderOptions(rawValue: 1 << 2)
    /// The caller holds a cached copy (``WebImageContext/loaderCachedImage``): send its validators
    /// and answer ``WebImageError/cacheNotModified`` when the server or the bytes say it is current.
    public static let ignoreCachedResponse = ImageDownloaderOptions(rawValue: 1 << 3)
    /// A no-op on Linux (no app background state).
    public static let continueInBackground = ImageDownloaderOptions(rawValue: 1 << 4)
    /// Send and store cookies with the downloader's ``ImageDownloader/cookieStore``.
    public static let handleCookies = ImageDownloaderOptions(rawValue: 1 << 5)
    /// Accept TLS certificates that fail verification (for tests and self-signed servers).
    public static let allowInvalidSSLCertificates = ImageDownloaderOptions(rawValue: 1 << 6)
    /// Queued before normal and low-priority downloads; joining a queued download raises it.
    public static let highPriority = ImageDownloaderOptions(rawValue: 1 << 7)
    /// Decode within ``ImageDecodeOptions/defaultScaleDownLimitBytes``.
    public static let scaleDownLargeImages = ImageDownloaderOptions(rawValue: 1 << 8)
    /// Deprecated in SDWebImage; a no-op here.
    public static let avoidDecodeImage = ImageDownloaderOptions(rawValue: 1 << 9)
    /// Decode only the first frame of an animation.
    public static let decodeFirstFrameOnly = ImageDownloaderOptions(rawValue: 1 << 10)
    /// No effect until lazily decoded animations exist (all frames follow the decode options).
    public static let preloadAllFrames = ImageDownloaderOptions(rawValue: 1 << 11)
    /// No effect until custom animated image classes exist.
    public static let matchAnimatedImageClass = ImageDownloaderOptions(rawValue: 1 << 12)

    /// The downloader options for a load with `options`, as SDWebImage 5's downloader maps the
    /// manager's: flag for flag, except that refreshing a cached image (``WebImageOptions/refreshCached``
    /// with `hasCachedImage`) turns progressive loading off and sets ``ignoreCachedResponse``.
    init(_ options: WebImageOptions, hasCachedImage: Bool) {
        let pairs: [(WebImageOptions, ImageDownloaderOptions)] = [
            (.lowPriority, .lowPriority), (.progressiveLoad, .progressiveLoad),
            (.refreshCached, .useNSURLCache), (.continueInBackground, .continueInBackground),
            (.handleCookies, .handleCookies), (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates),
            (.highPriority, .highPriority), (.scaleDownLargeImages, .scaleDownLargeImages),
            (.avoidDecodeImage, .avoidDecodeImage), (.decodeFirstFrameOnly, .decodeFirstFrameOnly),
            (.preloadAllFrames, .preloadAllFrames), (.matchAnimatedImageClass, .matchAnimatedImageClass),
        ]
        var result: ImageDownloaderOptions = []
        for (from, to) in pairs where options.contains(from) { result.insert(to) }
        if hasCachedImage, options.contains(.refreshCached) {
            result.remove(.progressiveLoad)
            result.insert(.ignoreCachedResponse)
        }
        self = result
    }

    /// The image options that shape decoding (first frame only, scale down).
    var decodingOptions: WebImageOptions {
        var options: WebImageOptions = []
        if contains(.decodeFirstFrameOnly) { options.insert(.decodeFirstFrameOnly) }
        if contains(.scaleDownLargeImages) { options.insert(.scaleDownLargeImages) }
        return options
    }

    /// The priority a download asked for, as its rank among the downloader's subscribers and
    /// in the queue (see ``SlotQueue/Priority``): high beats low when both are set.
    var rank: TaskPriority {
        if contains(.highPriority) { return .high }
        if contains(.lowPriority) { return .low }
        return .medium
    }

    /// The priority of the tasks that run a download: high or low when asked for, else the
    /// calling task's own, so that the download runs on the caller's pool of threads (a task
    /// at another priority runs on another of the runtime's pools, at the cost of extra threads
    /// and context switches).
    var runPriority: TaskPriority {
        if contains(.highPriority) { return .high }
        if contains(.lowPriority) { return .low }
        return Task.currentPriority
    }
}
