import Foundation
import Logging
import Metrics

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
