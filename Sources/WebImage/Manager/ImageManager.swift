import Foundation

/// Turns a URL, options and a context into a cache query, a load, a transform and a store, and
/// hands back one result (SDWebImage's `SDWebImageManager`).
///
/// Two API styles share one engine (`ImageManager+Load.swift` draws it): `try await
/// loadImage(with:)` (one result; the events stream for progress, partial images and
/// refreshes), and the callback API shaped like SDWebImage's, which returns a ``CombinedOperation``.
public final class ImageManager: Sendable {
    /// What every load reads (``settingsSnapshot``); the delegate sits apart, as only misses ask it.
    struct Settings {
        var transformer: (any ImageTransforming)?
        var cacheKeyFilter: (any ImageCacheKeyFiltering)?
        var cacheSerializer: (any ImageCacheSerializing)?
        var optionsProcessor: (any ImageOptionsProcessing)?
    }

    private struct Defaults {
        var cache: (any ImageCaching)?
        var loader: (any ImageLoading)?
    }

    /// The cache every load uses unless its context names another.
    public let imageCache: any ImageCaching
    /// The loader every load uses unless its context names another.
    public let imageLoader: any ImageLoading

    private struct DelegateReference {
        weak var delegate: (any ImageManagerDelegate)?
    }

    private let settings = Locked(Settings())
    private let delegateReference = Locked(DelegateReference())
    /// URLs whose load failed in a way the loader (or delegate) says will fail again.
    private let failedURLs = Locked(Set<URL>())
    /// How to cancel each load under way, for ``isRunning`` and ``cancelAll()``.
    private let running = Locked(RunningLoads())
    private static let defaults = Locked(Defaults())
    typealias Loads = InFlightTable<LoadKey, LoadOutcome, LoadEvent, WebImageError>
    /// The runs that concurrent loads share.
    let loads = Loads()
    /// Where loads are logged and counted.
    let telemetry: ManagerTelemetry

    /// The manager with ``defaultImageCache`` and ``defaultImageLoader`` (the shared cache and
    /// the shared loaders manager unless you set those before first use).
    public static let shared = ImageManager()

    /// The cache a manager made with ``init()`` uses; ``ImageCache/shared`` when nil.
    public static var defaultImageCache: (any ImageCaching)? {
        get { defaults.withLock { $0.cache } }
        set { defaults.withLock { $0.cache = newValue } }
    }

    /// The loader a manager made with ``init()`` uses; ``ImageLoadersManager/shared`` when nil.
    public static var defaultImageLoader: (any ImageLoading)? {
        get { defaults.withLock { $0.loader } }
        set { defaults.withLock { $0.loader = newValue } }
    }

    /// A manager over ``defaultImageCache`` and ``defaultImageLoader``.
    public convenience init() {
        let defaults = Self.defaults.withLock { ($0.cache, $0.loader) }
        self.init(cache: defaults.0 ?? ImageCache.shared, loader: defaults.1 ?? ImageLoadersManager.shared)
    }

    /// A manager over `cache` and `loader`.
    ///
    /// Loads are logged at debug level under the `swift-web-image.manager`, `.downloader` and
    /// `.cache` labels (URLs without user name and password) and counted through swift-metrics:
    /// `webimage_loads_total`, `webimage_cache_hits_total` (`type` memory or disk),
    /// `webimage_downloads_total`, `webimage_coalesced_total` and `webimage_failures_total`
    /// (`code`, the ``WebImageError/code``). Bootstrap `LoggingSystem` and `MetricsSystem`
    /// before creating the manager to receive them.
    public convenience init(cache: any ImageCaching, loader: any ImageLoading) {
        self.init(cache: cache, loader: loader, telemetry: ManagerTelemetry())
    }

    /// A manager reporting to the given loggers and metrics factory instead of the global ones.
    init(cache: any ImageCaching, loader: any ImageLoading, telemetry: ManagerTelemetry) {
        imageCache = cache
        imageLoader = loader
        self.telemetry = telemetry
    }

    /// Decides on downloads and the failed list; held weakly, as SDWebImage's.
    public var delegate: (any ImageManagerDelegate)? {
        get { delegateReference.withLock { $0.delegate } }
        set { delegateReference.withLock { $0.delegate = newValue } }
    }

    /// Applied to every loaded image unless the context says otherwise.
    public var transformer: (any ImageTransforming)? {
        get { settings.withLock { $0.transformer } }
        set { settings.withLock { $0.transformer = newValue } }
    }

    /// Maps URLs to cache keys unless the context names another filter.
    public var cacheKeyFilter: (any ImageCacheKeyFiltering)? {
        get { settings.withLock { $0.cacheKeyFilter } }
        set { settings.withLock { $0.cacheKeyFilter = newValue } }
    }

    /// Chooses the bytes stored on disk unless the context names another serializer.
    public var cacheSerializer: (any ImageCacheSerializing)? {
        get { settings.withLock { $0.cacheSerializer } }
        set { settings.withLock { $0.cacheSerializer = newValue } }
    }

    /// Rewrites every load's options and context.
    public var optionsProcessor: (any ImageOptionsProcessing)? {
        get { settings.withLock { $0.optionsProcessor } }
        set { settings.withLock { $0.optionsProcessor = newValue } }
    }

    /// Every setting, read under one lock.
    var settingsSnapshot: Settings { settings.withLock { $0 } }

    /// Whether any load has not finished yet.
    public var isRunning: Bool { running.withLock { !$0.cancels.isEmpty } }

    /// Cancels every running load: each ends with ``WebImageError/cancelled``.
    public func cancelAll() {
        let cancels = running.withLock { Array($0.cancels.values) }
        for cancel in cancels { cancel() }
    }

    /// Whether `url` is on the failed list.
    public func isFailedURL(_ url: URL) -> Bool {
        // Most loads meet an empty list: no need to hash the URL then.
        failedURLs.withLock { !$0.isEmpty && $0.contains(url) }
    }

    /// Takes `url` off the failed list.
    public func removeFailedURL(_ url: URL) { _ = failedURLs.withLock { $0.remove(url) } }

    /// Empties the failed list.
    public func removeAllFailedURLs() { failedURLs.withLock { $0.removeAll() } }

    /// The key `url` is cached under: the cache-key filter's result (the context's, else the
    /// manager's) or the absolute string; "" for nil.
    public func cacheKey(for url: URL?) -> String {
        guard let url else { return "" }
        return (cacheKeyFilter?.cacheKey(for: url)) ?? url.absoluteString
    }

    /// The full key for a load: filter, then the thumbnail key, then the transformer key
    /// (SDWebImage's `cacheKeyForURL:context:`).
    public func cacheKey(for url: URL?, context: WebImageContext?) -> String {
        guard let url else { return "" }
        var key = originalCacheKey(for: url, context: context)
        if let size = context?.imageThumbnailPixelSize, size.isPositive {
            key = CacheKeys.thumbnailed(key, size: size, preserveAspectRatio: context?.imagePreserveAspectRatio ?? true)
        }
        if let transformer = effectiveTransformer(context: context) {
            key = CacheKeys.transformed(key, transformerKey: transformer.transformerKey)
        }
        return key
    }

    /// The key of the untransformed, full-size original: the filter only.
    func originalCacheKey(for url: URL, context: WebImageContext?) -> String {
        let filter = context?.cacheKeyFilter ?? cacheKeyFilter
        return filter?.cacheKey(for: url) ?? url.absoluteString
    }

    func effectiveTransformer(context: WebImageContext?) -> (any ImageTransforming)? {
        switch context?.imageTransformer {
        case .transformer(let transformer): transformer
        case .disabled: nil
        case nil: transformer
        }
    }

    /// Counts a load as running until ``unregister(_:)``; `cancel` is how ``cancelAll()`` stops it.
    func register(cancel: @escaping @Sendable () -> Void) -> Int {
        running.withLock { running in
            running.nextID += 1
            running.cancels[running.nextID] = cancel
            return running.nextID
        }
    }

    func unregister(_ id: Int) {
        _ = running.withLock { $0.cancels.removeValue(forKey: id) }
    }

    private struct RunningLoads {
        var cancels: [Int: @Sendable () -> Void] = [:]
        var nextID = 0
    }

    func addFailedURL(_ url: URL) { _ = failedURLs.withLock { $0.insert(url) } }
}
