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
