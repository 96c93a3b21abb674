import Foundation

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
                    // while this transfer keeps its slot.
                    await ThreadPoolExecutor.cpu.run { work.send(.body(body.data)) }
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
