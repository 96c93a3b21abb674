import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Downloads images over HTTP(S) with AsyncHTTPClient (SDWebImage's `SDWebImageDownloader`).
///
/// Concurrent requests for one URL share one transfer; each caller gets its own
/// ``ImageDownloadToken``, progress, completion and decode options. Downloads wait in a queue
/// ordered by priority, then FIFO or LIFO, and at most ``maxConcurrentDownloads`` run at once.
public final class ImageDownloader: Sendable {
    private struct State {
        /// The live operation per URL, for coalescing.
        var operations: [String: DownloadOperation] = [:]
        var pending = PendingDownloads()
        var running = 0
        /// Of `running`, the slots kept by runners between two downloads (``Handover/kept``).
        var keptIdle = 0
        var maxConcurrent: Int
        var suspended = false
        var headers: ImageDownloadHeaders { didSet { environment = nil } }
        var headersFilter: ImageDownloadHeadersFilter? { didSet { environment = nil } }
        var requestModifier: (any ImageDownloadRequestModifying)? { didSet { environment = nil } }
        var responseModifier: (any ImageDownloadResponseModifying)? { didSet { environment = nil } }
        var decryptor: (any ImageDownloadDecrypting)? { didSet { environment = nil } }
        var isShutdown = false
        /// What transfers leaving the queue now get; made again after a setting changes, not
        /// once per download.
        var environment: DownloadEnvironment?

        init(maxConcurrent: Int, headers: ImageDownloadHeaders) {
            self.maxConcurrent = maxConcurrent
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
    private let isShared: Bool
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
        state = Locked(State(maxConcurrent: max(config.maxConcurrentDownloads, 1), headers: config.httpHeaders))
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.clientConfiguration(config))
    }

    deinit {
        // AsyncHTTPClient traps in debug builds when a client is released while running.
        if !state.withLock({ $0.isShutdown }) { client.shutdown { _ in } }
    }

    static func clientConfiguration(_ config: ImageDownloaderConfig) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        // Redirects are followed here, to count them, apply cookies per hop and drop credentials.
        configuration.redirectConfiguration = .disallow
        let timeout = TimeAmount.nanoseconds(Int64(config.effectiveTimeout * 1_000_000_000))
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
        get { state.withLock { $0.maxConcurrent } }
        set {
            state.withLock { $0.maxConcurrent = max(newValue, 1) }
            startQueued()
        }
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
        get { state.withLock { $0.suspended } }
        set {
            state.withLock { $0.suspended = newValue }
            startQueued()
        }
    }

    /// Requests sent and body bytes received by this downloader so far.
    public var statistics: ImageDownloaderStatistics { statisticsCounter.snapshot }

    /// Downloads queued or running.
    public var currentDownloadCount: Int { state.withLock { $0.running - $0.keptIdle + $0.pending.count } }

    /// A stream of this downloader's start, response, stop and finish events. Every call
    /// returns a new stream; ending its iteration unsubscribes.
    public func events() -> AsyncStream<ImageDownloadEvent> { broadcaster.subscribe() }

    // MARK: Downloading

    /// Downloads and decodes `url`. A nil URL calls `completion` with
    /// ``WebImageError/invalidURL(_:)`` and returns nil.
    @discardableResult
    public func downloadImage(
        with url: URL?, options: ImageDownloaderOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil, completion: @escaping ImageLoaderCompletion
    ) -> ImageDownloadToken? {
        guard let url, !url.absoluteString.isEmpty else {
            Task.detached { completion(.failure(.invalidURL(""))) }
            return nil
        }
        return enqueue(url, options: options, context: context, progress: progress, completion: completion)
    }

    /// Downloads `url` without decoding it and returns the body (after the decryptor). It
    /// shares transfers with image downloads of the same URL. Cancelling the calling task
    /// cancels this caller.
    public func downloadData(
        with url: URL, options: ImageDownloaderOptions = [], context: WebImageContext? = nil
    ) async throws(WebImageError) -> Data {
        let token = Locked<ImageDownloadToken?>(nil)
        let result = await withTaskCancellationHandler {
            // The token calls exactly one of the two closures exactly once (its completion is
            // taken out under its lock), which is what an unchecked continuation needs.
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Data, WebImageError>, Never>) in
                let started = enqueue(
                    url, options: options, context: context, progress: nil,
                    completion: { result in
                        if case .failure(let error) = result { continuation.resume(returning: .failure(error)) }
                    },
                    dataSink: { continuation.resume(returning: .success($0)) })
                token.withLock { $0 = started }
                if Task.isCancelled { started.cancel() }
            }
        } onCancel: {
            token.withLock { $0 }?.cancel()
        }
        return try result.get()
    }

    /// Cancels every download; each caller gets ``WebImageError/cancelled``.
    public func cancelAllDownloads() {
        let operations = state.withLock { state in
            Array(state.operations.values) + state.pending.operations
        }
        for operation in operations { operation.cancelAll() }
    }

    /// Cancels everything and shuts the HTTP client down; later downloads fail with
    /// ``WebImageError/invalidDownloadOperation(_:)``. Does nothing on ``shared``.
    public func shutdown() async {
        guard !isShared else { return }
        let first = state.withLock { state in
            defer { state.isShutdown = true }
            return !state.isShutdown
        }
        guard first else { return }
        cancelAllDownloads()
        try? await client.shutdown()
        broadcaster.finishAll()
    }

    func enqueue(
        _ url: URL, options: ImageDownloaderOptions, context: WebImageContext?, progress: ImageLoaderProgress?,
        completion: @escaping ImageLoaderCompletion, dataSink: (@Sendable (Data) -> Void)? = nil
    ) -> ImageDownloadToken {
        let key = url.absoluteString
        // Callers that want only the bytes never decode: skip working out how.
        let decodeOptions =
            dataSink == nil
            ? ImageDecodeOptions(context: context, options: options.decodingOptions, cacheKey: key)
            : ImageDecodeOptions()
        let coder: any ImageCoding = context?.imageCoder ?? ImageCodersManager.shared
        // One lock both queues the caller and takes the downloads that can start now.
        let (token, refused, startable) = state.withLock { state -> (ImageDownloadToken, Bool, Startable) in
            func makeToken(_ operation: DownloadOperation?) -> ImageDownloadToken {
                ImageDownloadToken(
                    url: url, operation: operation, decodeOptions: decodeOptions, coder: coder,
                    responseHandler: context?.downloadResponseHandler, progress: progress, completion: completion,
                    dataSink: dataSink)
            }
            guard !state.isShutdown else { return (makeToken(nil), true, Startable()) }
            let priority = options.queuePriority
            if let existing = state.operations[key], existing.asksSameQuestion(options: options, context: context) {
                let token = makeToken(existing)
                if existing.tryAdd(token) {
                    state.pending.raise(existing, to: priority)
                    return (token, false, takeStartable(&state))
                }
            }
            let operation = DownloadOperation(url: url, key: key, options: options, context: context) { [weak self] in
                self?.dequeue($0)
            }
            let token = makeToken(operation)
            _ = operation.tryAdd(token)
            state.operations[key] = operation
            state.pending.append(operation, priority: priority)
            return (token, false, takeStartable(&state))
        }
        if refused {
            Task.detached { token.deliver(.failure(.invalidDownloadOperation("the downloader was shut down"))) }
        } else {
            launch(startable)
        }
        return token
    }

    // MARK: Queue

    /// Queued downloads that took a free slot, to launch once the lock is released.
    private struct Startable {
        var operations: [DownloadOperation] = []
        var environment: DownloadEnvironment?
    }

    /// Starts the best queued downloads while slots are free.
    private func startQueued() {
        launch(state.withLock { takeStartable(&$0) })
    }

    /// Takes the best queued downloads while slots are free, counting them as running.
    private func takeStartable(_ state: inout State) -> Startable {
        var startable = Startable()
        while !state.suspended, state.running < state.maxConcurrent,
            let next = state.pending.popNext(lifo: config.executionOrder == .lifo)
        {
            startable.operations.append(next)
            state.running += 1
        }
        if !startable.operations.isEmpty { startable.environment = makeEnvironment(&state) }
        return startable
    }

    private func launch(_ startable: Startable) {
        guard let environment = startable.environment else { return }
        for operation in startable.operations { launchRunner(operation, environment) }
    }

    /// Runs `first`, then — while the queue has more of the same priority and nobody
    /// cancelled the task — the next ones in the same task: a busy downloader creates and
    /// schedules a task per slot, not per download.
    private func launchRunner(_ first: DownloadOperation, _ environment: DownloadEnvironment) {
        let priority = first.options.queuePriority
        TransferRunner.start(priority: first.taskPriority) { [weak self] task in
            var next: (DownloadOperation, DownloadEnvironment)? = (first, environment)
            while let (operation, environment) = next {
                if operation.begin(in: task) { await operation.run(environment) }
                guard let self else { return }
                let priority = Task.isCancelled ? nil : priority
                var handover = handOver(finishing: operation, priority: priority)
                if case .kept = handover {
                    // A caller that just got its result often asks for the next download at
                    // once (a fixed set of workers does): let it run before giving the slot
                    // up, so that download starts here instead of in a new task.
                    await Task.yield()
                    handover = handOver(finishing: nil, priority: priority)
                }
                if case .next(let operation, let environment) = handover {
                    next = (operation, environment)
                } else {
                    next = nil
                }
            }
        }
    }

    /// What a runner does with its slot after a download.
    private enum Handover {
        /// Runs this queued download next.
        case next(DownloadOperation, DownloadEnvironment)
        /// Nothing waits: it keeps the slot for a moment, then hands it over again.
        case kept
        /// The slot is free again.
        case released
    }

    private func makeEnvironment(_ state: inout State) -> DownloadEnvironment {
        if let environment = state.environment { return environment }
        let environment = DownloadEnvironment(
            client: client, config: config, headers: state.headers, headersFilter: state.headersFilter,
            requestModifier: state.requestModifier, responseModifier: state.responseModifier,
            decryptor: state.decryptor, cookieStore: cookieStore, events: broadcaster,
            idleTimeouts: idleTimeouts, statistics: statisticsCounter)
        state.environment = environment
        return environment
    }

    /// A runner is done with `finishing` (a download), or with a slot it kept (nil). With
    /// `priority`, the best queued download takes the slot over if it has that priority, for
    /// the same task to run; with nothing queued at all, a runner that just finished a download
    /// keeps the slot for a moment; otherwise the slot is freed.
    private func handOver(finishing operation: DownloadOperation?, priority: DownloadPriority?) -> Handover {
        let handover = state.withLock { state -> Handover in
            if let operation {
                if state.operations[operation.key] === operation { state.operations[operation.key] = nil }
            } else {
                state.keptIdle -= 1
            }
            if let priority, !state.suspended, state.running <= state.maxConcurrent {
                if let next = state.pending.popNext(lifo: config.executionOrder == .lifo, ifPriority: priority) {
                    return .next(next, makeEnvironment(&state))
                }
                if operation != nil, state.pending.count == 0 {
                    state.keptIdle += 1
                    return .kept
                }
            }
            state.running -= 1
            return .released
        }
        // Slots that are still free (or this one, when the next download wants another
        // priority) go to new tasks.
        if case .released = handover { startQueued() }
        return handover
    }

    /// Every caller of a queued operation left before it started.
    private func dequeue(_ operation: DownloadOperation) {
        state.withLock { state in
            state.pending.remove(operation)
            if state.operations[operation.key] === operation { state.operations[operation.key] = nil }
        }
    }
}
