import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Downloads images over HTTP(S) with AsyncHTTPClient (SDWebImage's `SDWebImageDownloader`).
///
/// Concurrent requests for one URL share one transfer; each caller gets its own progress,
/// result and decode options (and, in the callback API, its own ``ImageDownloadToken``).
/// Downloads wait in a queue ordered by priority, then FIFO or LIFO, and at most
/// ``maxConcurrentDownloads`` run at once.
public final class ImageDownloader: Sendable {
    private struct State {
        var headers: ImageDownloadHeaders { didSet { environment = nil } }
        var headersFilter: ImageDownloadHeadersFilter? { didSet { environment = nil } }
        var requestModifier: (any ImageDownloadRequestModifying)? { didSet { environment = nil } }
        var responseModifier: (any ImageDownloadResponseModifying)? { didSet { environment = nil } }
        var decryptor: (any ImageDownloadDecrypting)? { didSet { environment = nil } }
        var isShutdown = false
        /// What transfers leaving the queue now get; made again after a setting changes, not
        /// once per download.
        var environment: DownloadEnvironment?

        init(headers: ImageDownloadHeaders) {
            self.headers = headers
        }
    }

    /// The downloader the built-in loaders manager uses. ``shutdown()`` does nothing on it.
    public static let shared = ImageDownloader(config: .default, isShared: true)

    /// The configuration this downloader was made with (``maxConcurrentDownloads`` may differ now).
    public let config: ImageDownloaderConfig
    /// The cookie jar for downloads with ``ImageDownloaderOptions/handleCookies``.
    public let cookieStore = ImageDownloadCookieStore()

    private let state: Locked<State>
    private let client: HTTPClient
    private let pinnedClients: PinnedClients
    private let isShared: Bool
    /// The slots transfers wait for (``maxConcurrentDownloads``, ``isSuspended``).
    let queue: SlotQueue
    /// Transfers under way, one per URL (and revalidation question).
    let transfers = Transfers()
    /// Decodes under way, one per transfer, decode options and coder.
    let decodes = Decodes()
    private let broadcaster = DownloadEventBroadcaster()
    private let idleTimeouts = IdleTimeouts()
    private let statisticsCounter = DownloadStatisticsCounter()

    /// A downloader with its own HTTP client. Call ``shutdown()`` when done with it.
    public convenience init(config: ImageDownloaderConfig = .default) {
        self.init(config: config, isShared: false)
    }

    private init(config: ImageDownloaderConfig, isShared: Bool) {
        self.config = config
        self.isShared = isShared
        state = Locked(State(headers: config.httpHeaders))
        // Transfers run on Swift's cooperative pool, with the I/O: each response is read where its
        // bytes arrive (``ResponseReader``, on the event loop), which also drives the idle clock,
        // so a transfer's task resumes once per response, and a task that waits for a thread
        // never looks like a silent server.
        queue = SlotQueue(
            slots: config.maxConcurrentDownloads, order: config.executionOrder == .lifo ? .lifo : .fifo)
        let configuration = Self.clientConfiguration(config)
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        pinnedClients = PinnedClients(configuration: configuration)
    }

    deinit {
        // AsyncHTTPClient traps in debug builds when a client is released while running.
        if !state.withLock({ $0.isShutdown }) {
            client.shutdown { _ in }
            pinnedClients.startShutdown()
        }
    }

    static func clientConfiguration(_ config: ImageDownloaderConfig) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        // Redirects are followed here, to count them, apply cookies per hop and drop credentials.
        configuration.redirectConfiguration = .disallow
        let timeout = TimeAmount.nanoseconds(Int64(clamping: config.effectiveTimeout * 1_000_000_000))
        // No read timeout: AsyncHTTPClient re-arms it on every chunk; ``IdleTimeouts`` does the job.
        configuration.timeout = .init(connect: timeout, read: nil)
        // Our queue bounds concurrency; the pool must never be the bottleneck.
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(config.maxConcurrentDownloads, 64))
        // A refused connection fails the request at once, as URLSession does, instead of
        // retrying until a deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        // Off: AsyncHTTPClient's decompressor would handle every body part of every response;
        // ``ResponseInflater`` inflates only the compressed ones.
        configuration.decompression = .disabled
        // Without a tracer AsyncHTTPClient skips building spans (it uses the bootstrapped one,
        // even the no-op default, otherwise).
        if !config.tracesRequests { configuration.tracing.tracer = nil }
        return configuration
    }

    // MARK: Settings

    /// Downloads running at once; raising it starts queued ones at once, lowering it lets the
    /// running ones finish. Values below 1 mean 1.
    public var maxConcurrentDownloads: Int {
        get { queue.slots }
        set { queue.slots = newValue }
    }

    /// Sets a header sent with every later request; nil removes it.
    public func setValue(_ value: String?, forHTTPHeaderField field: String) {
        state.withLock { $0.headers[field] = value }
    }

    /// The value of a header sent with every request.
    public func value(forHTTPHeaderField field: String) -> String? {
        state.withLock { $0.headers[field] }
    }

    /// The headers sent with every request.
    public var httpHeaders: ImageDownloadHeaders { state.withLock { $0.headers } }

    /// Edits every request (a context's ``WebImageContext/downloadRequestModifier`` wins).
    public var requestModifier: (any ImageDownloadRequestModifying)? {
        get { state.withLock { $0.requestModifier } }
        set { state.withLock { $0.requestModifier = newValue } }
    }

    /// Edits every response (a context's ``WebImageContext/downloadResponseModifier`` wins).
    public var responseModifier: (any ImageDownloadResponseModifying)? {
        get { state.withLock { $0.responseModifier } }
        set { state.withLock { $0.responseModifier = newValue } }
    }

    /// Decrypts every body (a context's ``WebImageContext/downloadDecryptor`` wins).
    public var decryptor: (any ImageDownloadDecrypting)? {
        get { state.withLock { $0.decryptor } }
        set { state.withLock { $0.decryptor = newValue } }
    }

    /// SDWebImage 4's headers filter: runs before the request modifier; nil refuses the download.
    public var headersFilter: ImageDownloadHeadersFilter? {
        get { state.withLock { $0.headersFilter } }
        set { state.withLock { $0.headersFilter = newValue } }
    }

    /// While true, queued downloads wait; running ones go on.
    public var isSuspended: Bool {
        get { queue.isSuspended }
        set { queue.isSuspended = newValue }
    }

    /// Requests sent and body bytes received by this downloader so far.
    public var statistics: ImageDownloaderStatistics { statisticsCounter.snapshot }

    /// Downloads queued or running.
    public var currentDownloadCount: Int {
        let counts = queue.counts
        return counts.waiting + counts.running
    }

    /// A stream of this downloader's start, response, stop and finish events. Every call
    /// returns a new stream; ending its iteration unsubscribes.
    public func events() -> AsyncStream<ImageDownloadEvent> { broadcaster.subscribe() }

    // MARK: The callback API and control

    /// Downloads and decodes `url` with SDWebImage's callback shape. A nil URL calls `completion`
    /// with ``WebImageError/Code/invalidURL`` and returns nil.
    @discardableResult
    public func downloadImage(
        with url: URL?, options: ImageDownloaderOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil, completion: @escaping ImageLoaderCompletion
    ) -> ImageDownloadToken? {
        guard let url, !url.absoluteString.isEmpty else {
            Task { completion(.failure(.invalidURL(""))) }
            return nil
        }
        let token = ImageDownloadToken(
            url: url, interval: config.effectiveProgressInterval, responseHandler: context?.downloadResponseHandler,
            progress: progress, completion: completion)
        do throws(WebImageError) {
            try checkNotShutdown()
        } catch {
            Task { token.finish(.failure(error)) }
            return token
        }
        token.attach(
            subscribeDecode(url, options: options, context: context, events: token.handle) { result in
                token.finish(result)
            })
        return token
    }

    /// Cancels every download; each caller gets ``WebImageError/cancelled``.
    public func cancelAllDownloads() {
        decodes.cancelAll()
        transfers.cancelAll()
    }

    /// Cancels everything and shuts the HTTP client down; later downloads fail with
    /// ``WebImageError/Code/invalidDownloadOperation``. Does nothing on ``shared``.
    public func shutdown() async {
        guard !isShared else { return }
        let first = state.withLock { state in
            defer { state.isShutdown = true }
            return !state.isShutdown
        }
        guard first else { return }
        cancelAllDownloads()
        try? await client.shutdown()
        await pinnedClients.shutdown()
        broadcaster.finishAll()
    }

    func checkNotShutdown() throws(WebImageError) {
        if state.withLock({ $0.isShutdown }) { throw .invalidDownloadOperation("the downloader was shut down") }
    }

    /// What a transfer leaving the queue now gets.
    func currentEnvironment() -> DownloadEnvironment {
        state.withLock { state in
            if let environment = state.environment { return environment }
            let environment = DownloadEnvironment(
                client: client, pinnedClients: pinnedClients, config: config, headers: state.headers,
                headersFilter: state.headersFilter,
                requestModifier: state.requestModifier, responseModifier: state.responseModifier,
                decryptor: state.decryptor, cookieStore: cookieStore, events: broadcaster,
                idleTimeouts: idleTimeouts, statistics: statisticsCounter)
            state.environment = environment
            return environment
        }
    }
}

// MARK: What a transfer gets

/// What a transfer needs from its downloader, captured when it leaves the queue. A class:
/// transfers pass it around a lot, and one reference is cheaper to copy than nine.
final class DownloadEnvironment: Sendable {
    let client: HTTPClient
    /// Clients for hosts a request validator pinned to an address.
    let pinnedClients: PinnedClients
    let config: ImageDownloaderConfig
    let headers: ImageDownloadHeaders
    let headersFilter: ImageDownloadHeadersFilter?
    let requestModifier: (any ImageDownloadRequestModifying)?
    let responseModifier: (any ImageDownloadResponseModifying)?
    let decryptor: (any ImageDownloadDecrypting)?
    let cookieStore: ImageDownloadCookieStore
    let events: DownloadEventBroadcaster
    let idleTimeouts: IdleTimeouts
    let statistics: DownloadStatisticsCounter

    init(
        client: HTTPClient, pinnedClients: PinnedClients, config: ImageDownloaderConfig, headers: ImageDownloadHeaders,
        headersFilter: ImageDownloadHeadersFilter?, requestModifier: (any ImageDownloadRequestModifying)?,
        responseModifier: (any ImageDownloadResponseModifying)?, decryptor: (any ImageDownloadDecrypting)?,
        cookieStore: ImageDownloadCookieStore, events: DownloadEventBroadcaster, idleTimeouts: IdleTimeouts,
        statistics: DownloadStatisticsCounter
    ) {
        self.client = client
        self.pinnedClients = pinnedClients
        self.config = config
        self.headers = headers
        self.headersFilter = headersFilter
        self.requestModifier = requestModifier
        self.responseModifier = responseModifier
        self.decryptor = decryptor
        self.cookieStore = cookieStore
        self.events = events
        self.idleTimeouts = idleTimeouts
        self.statistics = statistics
    }
}

// MARK: Events and statistics

/// Lifecycle events of a downloader's transfers (SDWebImage's download notifications).
public enum ImageDownloadEvent: Sendable {
    /// A transfer left the queue and started (`SDWebImageDownloadStartNotification`).
    case start(url: URL)
    /// The response head arrived and passed the checks (`…ReceiveResponseNotification`).
    case receivedResponse(url: URL, response: ImageDownloadResponse)
    /// The transfer ended, successfully or not (`…StopNotification`).
    case stop(url: URL)
    /// The transfer ended with the whole body (`…FinishNotification`, after `stop`).
    case finish(url: URL)
}

/// Fans events out to every subscriber's own stream.
final class DownloadEventBroadcaster: Sendable {
    private let subscribers = Locked<[Int: AsyncStream<ImageDownloadEvent>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)
    /// Mirrors `subscribers.count`, for a lock-free check in ``emit(_:)``.
    private let subscriberCount = Atomic<Int>(0)

    func subscribe() -> AsyncStream<ImageDownloadEvent> {
        let (stream, continuation) = AsyncStream<ImageDownloadEvent>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        subscribers.withLock {
            $0[id] = continuation
            subscriberCount.store($0.count, ordering: .relaxed)
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock {
                $0.removeValue(forKey: id)
                self?.subscriberCount.store($0.count, ordering: .relaxed)
            }
        }
        return stream
    }

    /// Sends `event` to every subscriber. With none (the usual case) this is one atomic load:
    /// it runs four times per download, and the event is not even built.
    func emit(_ event: @autoclosure () -> ImageDownloadEvent) {
        guard subscriberCount.load(ordering: .relaxed) > 0 else { return }
        let targets = subscribers.withLock { Array($0.values) }
        let event = event()
        for continuation in targets { continuation.yield(event) }
    }

    func finishAll() {
        let targets = subscribers.withLock { subscribers in
            defer {
                subscribers = [:]
                subscriberCount.store(0, ordering: .relaxed)
            }
            return Array(subscribers.values)
        }
        for continuation in targets { continuation.finish() }
    }
}

/// What a downloader sent and received over its lifetime (ours; SDWebImage has per-task metrics only).
public struct ImageDownloaderStatistics: Sendable, Equatable {
    /// HTTP requests sent: redirects, retries and authentication round trips each count.
    public var requestCount: Int
    /// Body bytes of completed transfers (after gzip/deflate decoding).
    public var receivedBytes: Int

    public init(requestCount: Int = 0, receivedBytes: Int = 0) {
        self.requestCount = requestCount
        self.receivedBytes = receivedBytes
    }
}

/// The downloader-wide counters behind ``ImageDownloader/statistics``.
final class DownloadStatisticsCounter: Sendable {
    private let requests = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)

    func countRequest() { requests.wrappingAdd(1, ordering: .relaxed) }
    func countBytes(_ count: Int) { bytes.wrappingAdd(count, ordering: .relaxed) }

    var snapshot: ImageDownloaderStatistics {
        ImageDownloaderStatistics(
            requestCount: requests.load(ordering: .relaxed), receivedBytes: bytes.load(ordering: .relaxed))
    }
}

/// The order in which queued downloads start (SDWebImage's `SDWebImageDownloaderExecutionOrder`).
public enum ImageDownloaderExecutionOrder: Sendable, Equatable {
    /// First in, first out (the default).
    case fifo
    /// Last in, first out: the newest queued download starts next.
    case lifo
}

/// How an ``ImageDownloader`` behaves (SDWebImage's `SDWebImageDownloaderConfig`). The
/// downloader copies it at init; only ``ImageDownloader/maxConcurrentDownloads`` can change later.
public struct ImageDownloaderConfig: Sendable {
    /// SDWebImage's defaults plus ours.
    public static let `default` = ImageDownloaderConfig()

    /// Downloads running at once (default 6). Values below 1 mean 1.
    public var maxConcurrentDownloads = 6
    /// Seconds a download may wait for the server's next bytes — the response head or a body
    /// chunk — before failing with ``TransferFailure/Kind/timedOut`` (an idle timeout, as
    /// URLSession's `timeoutIntervalForRequest`). Its clock runs only while the download waits
    /// for the server: from sending each request, and not while ``requestValidator`` or a
    /// response modifier runs. Zero, negative and non-finite values mean 15, the default.
    public var downloadTimeout: TimeInterval = 15
    /// Seconds one attempt may take from its request to its last body byte, however steadily
    /// bytes arrive (default 120; as URLSession's `timeoutIntervalForResource`, which defaults
    /// to 7 days). It stops a server that drips a byte now and then, which the idle
    /// ``downloadTimeout`` never catches; it fails with ``TransferFailure/Kind/timedOut``.
    /// nil: no limit. Zero, negative and non-finite values mean 120.
    public var resourceTimeout: TimeInterval? = 120
    /// The least time between two progress callbacks of one caller, clamped to 0…1 s (default 0:
    /// every chunk). The last callback, with all the bytes, is never dropped.
    public var minimumProgressInterval: TimeInterval = 0
    /// FIFO (default) or LIFO among queued downloads of equal priority.
    public var executionOrder: ImageDownloaderExecutionOrder = .fifo
    /// Basic-auth credentials, sent only when the server asks (a 401 with a `Basic` challenge)
    /// and only when both are set.
    public var username: String?
    /// See ``username``.
    public var password: String?
    /// Acceptable HTTP status codes (default 200..<300; SDWebImage's header says 200..<400, its
    /// code uses 200..<300). nil accepts every status.
    public var acceptableStatusCodes: Set<Int>? = Set(200..<300)
    /// Acceptable MIME types (`image/png`, compared without parameters and case). nil (default)
    /// accepts any, including none.
    public var acceptableContentTypes: Set<String>?
    /// Bodies larger than this fail with ``TransferFailure/Kind/responseTooLarge`` — up front from
    /// `Content-Length`, else as soon as the count passes it (default
    /// ``ImageLoaderDecoding/defaultMaxDataSize``). Also bounds gzip/deflate expansion.
    public var maxResponseSize = ImageLoaderDecoding.defaultMaxDataSize
    /// Redirects followed per download (default 10); one more fails with
    /// ``TransferFailure/Kind/tooManyRedirects``. Negative values mean 0.
    public var maxRedirects = 10
    /// Retries of transient failures (default ``ImageDownloadRetryPolicy/none``: no retry).
    public var retryPolicy: ImageDownloadRetryPolicy = .none
    /// Whether each request gets a distributed-tracing span from the tracer bootstrapped with
    /// swift-distributed-tracing, as AsyncHTTPClient makes by default (default false: building
    /// a span and its attributes costs several microseconds per request, a visible share of a
    /// loopback image download, and image requests seldom need one).
    public var tracesRequests = false
    /// Headers sent with every request (default `Accept` and `User-Agent`); change them later
    /// with ``ImageDownloader/setValue(_:forHTTPHeaderField:)``.
    public var httpHeaders: ImageDownloadHeaders = .defaultImageHeaders
    /// Checked before every request is sent, the first and each redirect's, with the URL about
    /// to be requested: throwing (``WebImageError/requestRefused(_:)`` is the one meant for
    /// this) fails the download with that error and sends nothing, and an approval may pin the
    /// address the request connects to (``RequestApproval/connect(to:)``). Ours, for services
    /// that must not reach some addresses: `webimage serve` refuses private ones this way and
    /// connects to exactly the address it checked. Nil (the default) allows every http and
    /// https URL.
    public var requestValidator: (@Sendable (URL) async throws(WebImageError) -> RequestApproval)?

    public init() {}

    /// The timeout in force: ``downloadTimeout``, or 15 s when it is not a positive finite
    /// number; capped at one day so it always converts to nanoseconds.
    var effectiveTimeout: TimeInterval {
        guard downloadTimeout.isFinite, downloadTimeout > 0 else { return 15 }
        return min(downloadTimeout, 86_400)
    }

    /// The overall limit in force: ``resourceTimeout``, 120 s when it is not a positive finite
    /// number, capped at one day; nil when there is none.
    var effectiveResourceTimeout: TimeInterval? {
        guard let resourceTimeout else { return nil }
        guard resourceTimeout.isFinite, resourceTimeout > 0 else { return 120 }
        return min(resourceTimeout, 86_400)
    }

    var effectiveProgressInterval: TimeInterval {
        guard minimumProgressInterval.isFinite else { return 0 }
        return min(max(minimumProgressInterval, 0), 1)
    }

    var effectiveMaxResponseSize: Int { max(maxResponseSize, 0) }
    var effectiveMaxRedirects: Int { max(maxRedirects, 0) }
}

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

/// How the downloader loads an image, from the ``ImageLoading`` entry down to the HTTP
/// transfer:
///
///     loadImage ─▶ downloadImage ─▶ decode stage (per URL, decode options and coder)
///                                      ─▶ transfer stage (per URL) ─▶ queue slot ─▶ HTTPTransfer
///
/// Each stage is shared through an ``InFlightTable``: callers of one URL share one transfer;
/// callers that also want the same decode share one decode. Both are set up synchronously in
/// the caller's call — the transfer takes its place in the queue there — so downloads asked for
/// one after another start in that order. A transfer runs as a job of the downloader's
/// ``SlotQueue``, whose workers run transfers one after another while the queue stays busy. A
/// decode has no task of its own: its ``BodyWatcher`` decodes the body when the transfer sends
/// it (on a thread of ``ThreadPoolExecutor/cpu``, while the transfer keeps its slot) and completes
/// from the transfer's completion.
/// The stages' keys and results, and a caller's ``DownloadListener``, follow at the end of this file.
extension ImageDownloader: ImageLoading {
    /// `http` and `https` URLs.
    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Downloads with the ``ImageDownloaderOptions`` that SDWebImage derives from `options` and
    /// whether the context carries a ``WebImageContext/loaderCachedImage``.
    public func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        let downloaderOptions = ImageDownloaderOptions(options, hasCachedImage: context?.loaderCachedImage != nil)
        return try await downloadImage(with: url, options: downloaderOptions, context: context, events: events)
    }
}

extension ImageDownloader {
    typealias Transfers = InFlightTable<TransferKey, DownloadedBody, DownloadEvent, WebImageError>
    typealias Decodes = InFlightTable<DecodeKey, DecodedDownload, DownloadEvent, WebImageError>

    // MARK: Entry points

    /// Downloads and decodes `url` (the core of every other entry point). Callers of one URL
    /// share one transfer, and callers that also want the same decode share it; each gets its
    /// own progress (thinned to ``ImageDownloaderConfig/minimumProgressInterval``), its own
    /// ``WebImageContext/downloadResponseHandler`` call and its own result. Cancelling the
    /// calling task ends only this caller with ``WebImageError/cancelled``; the transfer stops
    /// when its last caller leaves.
    public func downloadImage(
        with url: URL, options: ImageDownloaderOptions = [], context: WebImageContext? = nil,
        events: ImageLoadEventHandler? = nil
    ) async throws(WebImageError) -> ImageLoadResult {
        if Task.isCancelled { throw .cancelled }
        try checkNotShutdown()
        // A caller that listens to nothing costs the transfer nothing per event.
        let responseHandler = context?.downloadResponseHandler
        let listener =
            events == nil && responseHandler == nil
            ? nil
            : DownloadListener(
                interval: config.effectiveProgressInterval, responseHandler: responseHandler, events: events)
        let subscription = subscribeDecode(url, options: options, context: context, events: listener?.handle)
        defer { listener?.finish() }
        return try await subscription.value().result
    }

    /// Downloads `url` without decoding it and returns the body (after the decryptor). It
    /// shares transfers with image downloads of the same URL. Cancelling the calling task
    /// cancels this caller.
    public func downloadData(
        with url: URL, options: ImageDownloaderOptions = [], context: WebImageContext? = nil
    ) async throws(WebImageError) -> Data {
        try await body(of: url, options: options, context: context).data
    }

    /// Like ``downloadData(with:options:context:)``, with what a cache keeps of the response's
    /// headers (content type, validators, `Cache-Control` and freshness). With
    /// ``ImageDownloaderOptions/ignoreCachedResponse`` and validators in the context's
    /// ``WebImageContext/loaderCachedMetadata``, a 304 throws ``WebImageError/cacheNotModified``.
    package func downloadEntry(
        with url: URL, options: ImageDownloaderOptions = [], context: WebImageContext? = nil
    ) async throws(WebImageError) -> DiskCacheEntry {
        let body = try await body(of: url, options: options, context: context)
        return DiskCacheEntry(data: body.data, metadata: body.metadata)
    }

    /// The transfer of `url`, shared with every other caller of it, without decoding.
    private func body(of url: URL, options: ImageDownloaderOptions, context: WebImageContext?)
        async throws(WebImageError) -> DownloadedBody
    {
        if Task.isCancelled { throw .cancelled }
        try checkNotShutdown()
        let key = TransferKey(url, options: options, context: context)
        return try await subscribeTransfer(
            key, url: url, options: options, context: context, rank: options.rank,
            runPriority: options.runPriority, events: nil
        ).value()
    }

    // MARK: Decode stage

    /// Subscribes to the decode of `url` for one caller, starting it (and the transfer under
    /// it) if none runs.
    func subscribeDecode(
        _ url: URL, options: ImageDownloaderOptions, context: WebImageContext?, events: Decodes.EventHandler?,
        completion: Decodes.Completion? = nil
    ) -> Decodes.Subscription {
        let transferKey = TransferKey(url, options: options, context: context)
        let decodeOptions = ImageDecodeOptions(
            context: context, options: options.decodingOptions, cacheKey: transferKey.url)
        let coder: any ImageCoding = context?.imageCoder ?? ImageCodersManager.shared
        let key = DecodeKey(transfer: transferKey, options: decodeOptions, coder: context?.imageCoder)
        let runPriority = options.runPriority
        return decodes.subscribe(key, priority: options.rank, events: events, completion: completion) {
            [self] work in
            let watcher = BodyWatcher(
                url: url, options: decodeOptions, coder: coder,
                progressive: progressiveDecoder(
                    options: options, context: context, coder: coder, decodeOptions: decodeOptions))
            // The decode completes from its transfer's completion: no task of its own.
            let transfer = subscribeTransfer(
                transferKey, url: url, options: options, context: context, rank: work.priority,
                runPriority: runPriority,
                events: { [weak watcher] event in
                    // Weak: the watcher holds this subscription, which holds this closure.
                    watcher?.observe(event, forwardingTo: work)
                },
                completion: { result in watcher.complete(work, with: result) })
            watcher.transfer = transfer
            work.onPriorityRaised { transfer.raisePriority(to: $0) }
            work.onAbandoned { transfer.cancel() }
        }
    }

    /// A progressive decoder when the caller asked for partial images, no decryptor is set and
    /// its coder can decode incrementally.
    private func progressiveDecoder(
        options: ImageDownloaderOptions, context: WebImageContext?, coder: any ImageCoding,
        decodeOptions: ImageDecodeOptions
    ) -> ProgressiveDecodeDriver? {
        guard options.contains(.progressiveLoad), context?.downloadDecryptor == nil, decryptor == nil,
            let coder = coder as? any ProgressiveImageCoding
        else { return nil }
        return ProgressiveDecodeDriver(coder: coder, options: decodeOptions)
    }

    // MARK: Transfer stage

    /// Subscribes to the transfer of `key`. A new transfer takes its place in the queue now
    /// and runs once it gets a slot; the first subscriber's options and context shape the
    /// request, as in SDWebImage. `rank` orders the queue; `runPriority` is the task priority
    /// the transfer runs at.
    func subscribeTransfer(
        _ key: TransferKey, url: URL, options: ImageDownloaderOptions, context: WebImageContext?,
        rank: TaskPriority, runPriority: TaskPriority, events: Transfers.EventHandler?,
        completion: Transfers.Completion? = nil
    ) -> Transfers.Subscription {
        transfers.subscribe(key, priority: rank, events: events, completion: completion) { [self] work in
            let ticket = queue.enqueue(priority: SlotQueue.Priority(work.priority), runPriority: runPriority) {
                [self] job in
                await work.run(in: job) { [self] work throws(WebImageError) in
                    let body = try await HTTPTransfer(
                        url: url, key: key.url, options: options, context: context, work: work,
                        environment: currentEnvironment()
                    ).run()
                    // Each decode decodes the body when it gets this event: on the CPU threads,
                    // while this transfer keeps its slot. With no decode listening (callers of
                    // the body alone), there is nothing to run there: the hop to a CPU thread and
                    // back cost two thread switches per download. A decode that joins after
                    // this point decodes in its completion instead (`BodyWatcher.decoded`).
                    if work.hasListeners { await ThreadPoolExecutor.cpu.run { work.send(.body(body.data)) } }
                    return body
                }
            }
            work.onPriorityRaised { [queue] in queue.raise(ticket, to: SlotQueue.Priority($0)) }
            work.onAbandoned { [queue] in queue.leave(ticket) }
        }
    }
}

/// What a transfer reports to its subscribers while it runs.
enum DownloadEvent: Sendable {
    /// The request as sent, after the headers filter and request modifier.
    case request(ImageDownloadRequest)
    /// The response head, after the response modifier, before it is checked.
    case responseHead(ImageDownloadResponse)
    /// The same head, once it passed the checks (status code, content type).
    case response(ImageDownloadResponse)
    /// Body bytes so far and the expected total (-1 when unknown).
    case progress(received: Int, expected: Int)
    /// The body so far: at doubling sizes, and on every chunk of a progressive download.
    case bytes(Data)
    /// A partial image of a progressive decode.
    case partialImage(Image)
    /// The whole body, sent by the transfer just before it ends, on a CPU thread: each decode
    /// decodes it then, in the transfer's slot, so bodies never pile up faster than they are
    /// decoded (the queue's slots bound the decodes in flight, as they bound the transfers).
    case body(Data)
}

/// One decode's view of its transfer's body as it arrives: it fails the decode as soon as the
/// header shows more pixels than the decode allows (unless the decode makes a thumbnail or
/// scales down, which keeps such images within bounds), and feeds the progressive decoder.
final class BodyWatcher: Sendable {
    private struct State {
        var checked = false
        var transfer: ImageDownloader.Transfers.Subscription?
        /// A failed check before ``transfer`` was set, applied when it is.
        var failure: WebImageError?
        /// The decode of the whole body.
        var decoded: Result<Image, WebImageError>?
        /// The transfer ended (it can end before ``transfer`` is set, if it fails at once).
        var ended = false
    }

    let url: URL
    let options: ImageDecodeOptions
    let coder: any ImageCoding
    let progressive: ProgressiveDecodeDriver?
    private let state = Locked(State())

    init(url: URL, options: ImageDecodeOptions, coder: any ImageCoding, progressive: ProgressiveDecodeDriver?) {
        self.url = url
        self.options = options
        self.coder = coder
        self.progressive = progressive
        // Only a decode at full size can be too large.
        state.withLock { $0.checked = options.thumbnailPixelSize != .zero || options.scaleDownLimitBytes != nil }
    }

    /// The decode's subscription to its transfer, which a failed check cancels.
    var transfer: ImageDownloader.Transfers.Subscription? {
        get { state.withLock { $0.transfer } }
        set {
            let failure = state.withLock { state -> WebImageError? in
                guard !state.ended else { return nil }
                state.transfer = newValue
                return state.failure
            }
            if let failure { newValue?.cancel(with: failure) }
        }
    }

    /// Looks at the bytes, decodes the whole body, and passes every other event on to the
    /// decode's subscribers.
    func observe(_ event: DownloadEvent, forwardingTo work: ImageDownloader.Decodes.Work) {
        switch event {
        case .bytes(let data):
            checkPixelLimit(data)
            progressive?.offer(data) { work.send(.partialImage($0)) }
        case .body(let data):
            progressive?.stop()
            let image = Result { () throws(WebImageError) in
                try ImageLoaderDecoding.decode(data, url: url, decodeOptions: options, coder: coder)
            }
            state.withLock { $0.decoded = image }
        default:
            work.send(event)
        }
    }

    /// The decode of the whole body: the one made when the transfer sent it, else made now.
    func decoded(_ data: Data) -> Result<Image, WebImageError> {
        state.withLock { $0.decoded }
            ?? Result { () throws(WebImageError) in
                try ImageLoaderDecoding.decode(data, url: url, decodeOptions: options, coder: coder)
            }
    }

    /// Completes the decode `work` once its transfer ended: with the image decoded when the
    /// body arrived (see `.body`), or the transfer's error. With partial decodes running, it
    /// waits for them first, so that no partial image follows the result.
    func complete(_ work: ImageDownloader.Decodes.Work, with transfer: Result<DownloadedBody, WebImageError>) {
        // The subscription's completion holds this watcher: letting go of the subscription
        // here, where every subscription ends, leaves no cycle behind.
        state.withLock { state in
            state.transfer = nil
            state.ended = true
        }
        let result = transfer.flatMap { body in
            decoded(body.data).map { image in
                DecodedDownload(
                    result: ImageLoadResult(image: image, data: body.data, metadata: body.metadata, isFinished: true),
                    report: body.report)
            }
        }
        guard let progressive else { return work.complete(result) }
        Task {
            await progressive.close()
            work.complete(result)
        }
    }

    private func checkPixelLimit(_ data: Data) {
        guard !state.withLock({ $0.checked }) else { return }
        guard let info = try? coder.imageInfo(for: data) else {
            if data.count > 16 << 20 { state.withLock { $0.checked = true } }
            return
        }
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        let failure: WebImageError? =
            overflow || pixels > options.maxPixelCount
            ? .imageTooLarge(width: info.width, height: info.height, limit: options.maxPixelCount) : nil
        let transfer = state.withLock { state in
            state.checked = true
            state.failure = failure
            return state.transfer
        }
        if let failure { transfer?.cancel(with: failure) }
    }
}

// MARK: The stages' keys and results

/// What identifies a transfer: the URL, and for a revalidation the validators and cached bytes
/// it sends. A plain caller that joined a revalidation could get `cacheNotModified` for an image
/// it does not have; a revalidating caller that joined a plain transfer would never hear that
/// nothing changed.
struct TransferKey: Hashable, Sendable {
    let url: String
    let validators: [String]?
    let cachedData: Data?

    init(_ url: URL, options: ImageDownloaderOptions, context: WebImageContext?) {
        self.url = url.absoluteString
        if options.contains(.ignoreCachedResponse) {
            validators = ImageDownloadConditionalRequest.headers(for: context?.loaderCachedMetadata).flatMap {
                [$0.0, $0.1]
            }
            cachedData = context?.loaderCachedData
        } else {
            validators = nil
            cachedData = nil
        }
    }
}

/// What identifies a decode: its transfer, the decode options and the coder object. A coder
/// that is a value (whose identity cannot be compared) never shares a decode.
struct DecodeKey: Hashable, Sendable {
    let transfer: TransferKey
    let options: ImageDecodeOptions
    let coder: CoderIdentity

    enum CoderIdentity: Hashable, Sendable {
        case registry
        case object(ObjectIdentifier)
        case unshared(UnsharedID)
    }

    init(transfer: TransferKey, options: ImageDecodeOptions, coder: (any ImageCoding)?) {
        self.transfer = transfer
        self.options = options
        if let coder {
            self.coder = ObjectIdentifier(instance: coder).map { .object($0) } ?? .unshared(.next())
        } else {
            self.coder = .registry
        }
    }

    static func == (lhs: DecodeKey, rhs: DecodeKey) -> Bool {
        lhs.coder == rhs.coder && lhs.transfer == rhs.transfer && lhs.options == rhs.options
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(transfer)
        hasher.combine(coder)
    }
}

/// A finished transfer: the body (after the decryptor) and what it reports.
struct DownloadedBody: Sendable {
    var data: Data
    var report: TransferReport

    /// What a cache keeps of the response's headers (worked out only for decodes: callers that
    /// want the bytes alone never pay for it).
    var metadata: DiskCacheMetadata {
        var fields: [String: String] = [:]
        for (name, value) in report.response?.headers.fields ?? [] { fields[name] = value }
        return DiskCacheMetadata(httpHeaders: fields)
    }
}

/// The request, the response and the metrics of a finished transfer.
struct TransferReport: Sendable {
    var request: ImageDownloadRequest?
    var response: ImageDownloadResponse?
    var metrics = ImageDownloadMetrics()
}

/// A finished decode: the caller's result and its transfer's report.
struct DecodedDownload: Sendable {
    var result: ImageLoadResult
    var report: TransferReport
}

// MARK: One caller's events

/// One caller's side of a download's events: progress thinned to the downloader's minimum
/// interval (a report with nothing yet, or with every byte, always goes through), the
/// context's response handler, partial images. Nothing goes out once the caller has its result.
final class DownloadListener: Sendable {
    private struct State {
        /// Uptime of the last progress report, for the minimum interval.
        var lastReport: UInt64 = 0
        var lastReceived = -1
        var lastExpected = -2
        var finished = false
    }

    let interval: TimeInterval
    let responseHandler: ImageDownloadResponseHandler?
    let events: ImageLoadEventHandler?
    private let state = Locked(State())

    init(interval: TimeInterval, responseHandler: ImageDownloadResponseHandler?, events: ImageLoadEventHandler?) {
        self.interval = interval
        self.responseHandler = responseHandler
        self.events = events
    }

    func handle(_ event: DownloadEvent) {
        switch event {
        case .response(let response):
            if !isFinished { responseHandler?(response) }
        case .progress(let received, let expected):
            if isDue(received: received, expected: expected) {
                events?(.progress(receivedSize: received, expectedSize: expected))
            }
        case .partialImage(let image):
            if !isFinished { events?(.partialImage(image)) }
        case .request, .responseHead, .bytes, .body:
            break
        }
    }

    /// The caller has its result: nothing more goes out.
    func finish() {
        state.withLock { $0.finished = true }
    }

    private var isFinished: Bool { state.withLock { $0.finished } }

    private func isDue(received: Int, expected: Int) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { state in
            guard !state.finished, received != state.lastReceived || expected != state.lastExpected else {
                return false
            }
            let due =
                interval <= 0 || received <= 0 || received == expected
                || now &- state.lastReport >= UInt64(clamping: interval * 1_000_000_000)
            guard due else { return false }
            state.lastReport = now
            state.lastReceived = received
            state.lastExpected = expected
            return true
        }
    }
}
