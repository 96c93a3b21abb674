import Foundation
import Logging
import Metrics

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

// MARK: Telemetry

/// The manager's loggers and swift-metrics counters. Injected (internal init) so tests can
/// capture them without bootstrapping the process-wide `LoggingSystem` or `MetricsSystem`.
struct ManagerTelemetry: Sendable {
    let logger: Logger
    let loaderLogger: Logger
    let cacheLogger: Logger
    private let factory: any MetricsFactory
    private let loads: Counter
    private let memoryHits: Counter
    private let diskHits: Counter
    private let downloads: Counter
    private let coalesced: Counter

    static let loadsLabel = "webimage_loads_total"
    static let cacheHitsLabel = "webimage_cache_hits_total"
    static let downloadsLabel = "webimage_downloads_total"
    static let coalescedLabel = "webimage_coalesced_total"
    static let failuresLabel = "webimage_failures_total"

    init(
        logger: Logger = WebImageLog.manager, loaderLogger: Logger = WebImageLog.downloader,
        cacheLogger: Logger = WebImageLog.cache, metricsFactory: (any MetricsFactory)? = nil
    ) {
        let factory = metricsFactory ?? MetricsSystem.factory
        self.logger = logger
        self.loaderLogger = loaderLogger
        self.cacheLogger = cacheLogger
        self.factory = factory
        loads = Counter(label: Self.loadsLabel, factory: factory)
        memoryHits = Counter(label: Self.cacheHitsLabel, dimensions: [("type", "memory")], factory: factory)
        diskHits = Counter(label: Self.cacheHitsLabel, dimensions: [("type", "disk")], factory: factory)
        downloads = Counter(label: Self.downloadsLabel, factory: factory)
        coalesced = Counter(label: Self.coalescedLabel, factory: factory)
    }

    /// Counts and logs one load's end: its cache type, or its error.
    func loadEnded(url: URL?, key: String?, outcome: Result<ImageManager.LoadOutcome, WebImageError>) {
        loads.increment()
        switch outcome {
        case .success(.loaded(let result)), .success(.notModified(let result)):
            if result.cacheType == .memory { memoryHits.increment() }
            if result.cacheType == .disk { diskHits.increment() }
            logger.debug(
                "load finished",
                metadata: [
                    "url": "\(WebImageLog.redacted(url))", "key": "\(WebImageLog.redacted(key: key ?? ""))",
                    "cacheType": "\(result.cacheType)", "outcome": "\(Self.describe(outcome))",
                ])
        case .failure(let error):
            // Not a failure of the image: the caller walked away.
            if error != .cancelled {
                Counter(label: Self.failuresLabel, dimensions: [("code", "\(error.code)")], factory: factory)
                    .increment()
            }
            logger.debug(
                "load failed",
                metadata: [
                    "url": "\(WebImageLog.redacted(url))", "key": "\(WebImageLog.redacted(key: key ?? ""))",
                    "code": "\(error.code)", "error": "\(error)",
                ])
        }
    }

    /// ``loadEnded(url:key:outcome:)`` for a plain memory hit, without building an outcome.
    func memoryHit(url: URL, key: String) {
        loads.increment()
        memoryHits.increment()
        logger.debug(
            "load finished",
            metadata: [
                "url": "\(WebImageLog.redacted(url))", "key": "\(WebImageLog.redacted(key: key))",
                "cacheType": "\(ImageCacheType.memory)", "outcome": "loaded",
            ])
    }

    func loadJoined(url: URL, key: String) {
        coalesced.increment()
        logger.trace(
            "load joined a running one",
            metadata: ["url": "\(WebImageLog.redacted(url))", "key": "\(WebImageLog.redacted(key: key))"])
    }

    func loaderStarted(url: URL) {
        downloads.increment()
        loaderLogger.debug("load started", metadata: ["url": "\(WebImageLog.redacted(url))"])
    }

    func loaderEnded(url: URL, result: Result<ImageLoadResult, WebImageError>) {
        switch result {
        case .success(let loaded):
            loaderLogger.debug(
                "load finished",
                metadata: [
                    "url": "\(WebImageLog.redacted(url))", "bytes": "\(loaded.data?.count ?? 0)",
                    "size": "\(loaded.image.width)x\(loaded.image.height)",
                ])
        case .failure(let error):
            loaderLogger.debug(
                "load failed",
                metadata: [
                    "url": "\(WebImageLog.redacted(url))", "code": "\(error.code)",
                    "error": "\(error)",
                ])
        }
    }

    func storeFailed(key: String, error: any Error) {
        cacheLogger.debug(
            "store failed", metadata: ["key": "\(WebImageLog.redacted(key: key))", "error": "\(error)"])
    }

    private static func describe(_ outcome: Result<ImageManager.LoadOutcome, WebImageError>) -> String {
        switch outcome {
        case .success(.loaded): "loaded"
        case .success(.notModified): "notModified"
        case .failure: "failed"
        }
    }
}
