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
        // Transfers run on the network threads: their body streams and timeouts never wait behind
        // CPU work, or behind a host that blocks Swift's cooperative pool.
        queue = SlotQueue(
            slots: config.maxConcurrentDownloads, order: config.executionOrder == .lifo ? .lifo : .fifo,
            executor: ThreadPoolExecutor.network)
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
