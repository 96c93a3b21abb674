#if Server
    import Foundation
    import Logging
    import WebImage

    /// The image service behind `webimage serve`: answers imgproxy-style URLs with processed
    /// images, independent of the HTTP server in front of it.
    ///
    /// A request flows: path → signature → options → result cache (memory, then disk, then S3) → (one run per
    /// result key, shared by identical concurrent requests: source cache or download → header and
    /// plan → a place in the processing queue → decode at the size the processing needs, process and
    /// encode on the CPU threads → store) → conditional response.
    ///
    /// **Admission.** Results are made by at most ``ServiceConfiguration/workers`` runs at once, on
    /// ``ThreadPoolExecutor/cpu``'s threads (never on Swift's cooperative pool or the network
    /// threads, which keep the network and the timers). Runs wait in one ``SlotQueue``, bounded in length (429 beyond it) and in time
    /// (503 after ``ServiceConfiguration/queueTimeout``). Sources of
    /// ``ServiceConfiguration/largeSourcePixels`` or more wait in a lane of their own that may hold
    /// at most ``ServiceConfiguration/largeSourceWorkers`` workers, so that huge images can never
    /// take every worker from small ones: a thumbnail waits at most for another small one.
    public final class ImageService: Sendable {
        public let configuration: ServiceConfiguration
        let sources: SourceStore
        let results: ResultStore
        let watermarks: WatermarkStore
        /// Recent results, before the disk.
        let memory: ResultMemoryCache
        /// Resolves source host names for the address guard.
        let resolver: SourceHostResolver
        /// The line of runs waiting for a worker: lane 0 small sources, lane 1 large ones.
        let processing: SlotQueue
        /// Where runs decode, process and encode.
        let executor: ThreadPoolExecutor
        /// Processing runs under way, by result key: identical concurrent requests share one.
        let runs = InFlightTable<String, ProcessedResult, Never, ServiceError>()
        let logger: Logger
        private let draining = Locked(false)
        /// What a service logs to when given no logger: nothing (as AsyncHTTPClient's default).
        public static let silentLogger = Logger(label: "webimage.serve", factory: { _ in SwiftLogNoOpLogHandler() })
        /// Counters and histograms for `GET /metrics`.
        public let metrics: ServiceMetrics
        /// The request's spans (nothing without ``ServiceConfiguration/tracer``).
        let tracing: ServiceTracing

        /// A service with its own downloader (limited to the configuration's source size and
        /// guarded against private addresses) and, with a cache directory, a disk cache for sources
        /// and results, and with an S3 configuration, an S3 tier behind the disk. It logs one `info`
        /// line per request to `logger` (nothing by default).
        public init(
            configuration: ServiceConfiguration, logger: Logger = ImageService.silentLogger,
            metrics: ServiceMetrics = ServiceMetrics()
        ) throws(WebImageError) {
            self.configuration = configuration
            self.logger = logger
            self.metrics = metrics
            let tracing = ServiceTracing(tracer: configuration.tracer)
            self.tracing = tracing
            let disk = try configuration.cacheDirectory.map { directory throws(WebImageError) in
                try DiskCache(directory: directory)
            }
            var downloaderConfig = ImageDownloaderConfig()
            downloaderConfig.maxResponseSize = configuration.maxSourceBytes
            downloaderConfig.maxRedirects = configuration.maxRedirects
            // Fetching waits on the network, not the cores: more sources at once than results.
            downloaderConfig.maxConcurrentDownloads = max(16, configuration.workers * 4)
            let resolver = SourceHostResolver(
                configuration.sourceHostResolution,
                lookup: configuration.sourceHostResolver ?? HostLookup.addresses(of:))
            self.resolver = resolver
            let addressGuard = SourceAddressGuard(
                allowsLoopback: configuration.allowsLoopbackSources, allowsPrivate: configuration.allowsPrivateSources,
                resolver: { host throws(WebImageError) in try await resolver.addresses(for: host) })
            downloaderConfig.requestValidator = { [addressGuard] url throws(WebImageError) in
                try await addressGuard.check(url)
            }
            let s3 = configuration.s3.map { S3Store(configuration: $0, metrics: metrics, tracing: tracing) }
            sources = SourceStore(
                downloader: ImageDownloader(config: downloaderConfig), disk: disk,
                s3: configuration.s3?.storesSources == true ? s3 : nil,
                tracing: configuration.propagatesTraceToSources ? tracing : ServiceTracing(tracer: nil))
            results = ResultStore(disk: disk, s3: s3)
            watermarks = WatermarkStore(configuration: configuration, sources: sources)
            memory = ResultMemoryCache(limit: configuration.memoryCacheBytes)
            let timeout = configuration.queueTimeout.isFinite ? configuration.queueTimeout.clamped(to: 0...86_400) : 10
            let workers = max(1, configuration.workers)
            processing = SlotQueue(
                slots: workers, laneLimits: [workers, max(1, min(configuration.largeSourceWorkers, workers))],
                waitingLimit: max(0, configuration.queueLimit), waitLimit: Duration(clampingSeconds: timeout))
            executor = configuration.executor
        }

        /// The response to `request`; every failure is an error response, never a thrown error.
        /// When tracing, it is answered in a server span that continues the request's `traceparent`.
        public func respond(to request: ServiceRequest) async -> ServiceResponse {
            guard tracing.tracer != nil else { return await answer(request) }
            return await tracing.serverSpan(for: request) { await answer(request) }
        }

        private func answer(_ request: ServiceRequest) async -> ServiceResponse {
            metrics.requestStarted()
            if metrics.isMirrored { refreshGauges() }
            let clock = ContinuousClock()
            let start = clock.now
            let response: ServiceResponse
            do {
                response = try await handle(request)
            } catch {
                if error.status >= 500 { logger.warning("\(request.path): \(error.message)") }
                response = .failure(error)
            }
            let elapsed = clock.now - start
            metrics.requestFinished(status: response.status, after: elapsed)
            if metrics.isMirrored { refreshGauges() }
            logger.info(
                "request",
                metadata: [
                    "path": "\(request.path)", "status": "\(response.status)",
                    "ms":
                        "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
                    "bytes": "\(response.body.count)",
                ])
            return response
        }

        /// Whether the server in front is draining (``beginDraining()``): `GET /health` answers 503
        /// so that a load balancer stops sending requests while those in flight finish.
        public var isDraining: Bool { draining.withLock { $0 } }

        /// Marks the service as draining; image requests are still answered.
        public func beginDraining() {
            draining.withLock { $0 = true }
        }

        /// Cancels the source downloads under way, closes the service's HTTP clients (each pinned
        /// one once its request ends) and stops the resolver's threads; later requests that need a
        /// source fail with 502. Call it once the server has stopped.
        public func shutdown() async {
            await sources.downloader.shutdown()
            await resolver.shutdown()
            await results.s3?.shutdown()
            await FileIOExecutor.shared.drain()
        }

        /// `GET /metrics`: the Prometheus text exposition, the queue gauges read now.
        public func metricsText() -> String {
            refreshGauges()
            return metrics.exposition()
        }

        /// The gauges read from the processing queue now.
        private func refreshGauges() {
            let counts = processing.counts
            metrics.queue(running: counts.running, waiting: counts.waiting, workers: configuration.workers)
        }

        private func handle(_ request: ServiceRequest) async throws(ServiceError) -> ServiceResponse {
            if let secret = configuration.secret,
                !URLSigner.constantTimeEqual(
                    Array((request.authorization ?? "").utf8), Array("Bearer \(secret)".utf8))
            {
                throw .forbidden("the Authorization header is missing or wrong")
            }
            if request.path.hasPrefix("/info/") {
                return try await info(request, path: String(request.path.dropFirst("/info".count)))
            }
            let path = try ProcessingPath(request.path, onlyPresets: configuration.onlyPresets)
            if !configuration.trustedSignatures.contains(path.signature) {
                try configuration.signer.verify(path.signature, for: path.signedPath)
            }
            if !configuration.allowedOptions.isEmpty, !configuration.onlyPresets {
                for segment in path.optionSegments where segment != "-" {
                    let name = String(segment.prefix { $0 != ":" })
                    guard configuration.allowedOptions.contains(name) else {
                        throw .forbidden("processing option '\(name)' is not allowed here")
                    }
                }
            }
            let hints = configuration.readsClientHints ? request.clientHints : ClientHints()
            var options = try ProcessingOptions(
                segments: path.optionSegments, presets: configuration.presets, defaults: configuration.optionDefaults,
                hints: hints)
            if options.usesSecurityOptions, !configuration.allowsSecurityOptions {
                throw .forbidden("security processing options are not allowed")
            }
            if options.maxResultDimension == nil { options.maxResultDimension = configuration.maxResultDimension }
            options.skipProcessingFormats.formUnion(configuration.skipProcessingFormats)
            if let ext = path.formatExtension, !ext.isEmpty {
                try options.applyFormat(OptionArguments(name: "extension", values: [ext]))
            }
            if let expires = options.expires, expires > 0, expires < Int(clamping: Date().timeIntervalSince1970) {
                throw .notFound("the URL expired")
            }
            let source = try SourcePolicy(configuration: configuration).url(for: path.source)
            var (chosen, consultsAccept) = OutputFormats.negotiate(
                requested: options.format, accept: request.accept,
                automatic: configuration.automaticFormat ? configuration.automaticFormats : [],
                enforced: configuration.enforcedFormats)
            if options.usesBestFormat(configuration) {
                (options.bestFormats, consultsAccept) = OutputFormats.bestCandidates(
                    accept: request.accept, configuration: configuration)
                chosen = nil
            }
            var policy = ResponsePolicy(
                timeToLive: configuration.timeToLive, passesSourceCaching: configuration.passesSourceCacheControl)
            if consultsAccept { policy.vary.append("Accept") }
            if configuration.readsClientHints { policy.vary += ClientHints.headerNames }
            if options.raw { return try await rawSource(source, for: request, options: options, policy: policy) }
            do {
                return try await processed(source, for: request, options: options, format: chosen, policy: policy)
            } catch let error where error.isSourceFailure && configuration.fallbackImage != nil {
                return try await fallback(for: request, options: options, format: chosen, policy: policy, error: error)
            }
        }

        /// The result for `source` from the caches, else made: a miss with the client's validators
        /// asks the source conditionally first, and its 304 is passed on.
        private func processed(
            _ source: URL, for request: ServiceRequest, options: ProcessingOptions, format: ImageFormat?,
            policy: ResponsePolicy
        ) async throws(ServiceError) -> ServiceResponse {
            let key = ResultKey.make(options: options, format: format, source: source)
            if let cached = await tracing.span("cache.lookup", { await cachedResult(forKey: key) }) {
                return cached.response(to: request, options: options, policy: policy)
            }
            metrics.cacheMiss()
            var fetched: DiskCacheEntry?
            if request.ifNoneMatch != nil || request.ifModifiedSince != nil {
                let validators = DiskCacheMetadata(etag: request.ifNoneMatch, lastModified: request.ifModifiedSince)
                switch try await fetchSource(source, validators: validators) {
                case .notModified:
                    return policy.notModified(expires: options.expires)
                case .source(let entry):
                    fetched = entry
                }
            }
            let result = try await process(key: key, source: source, fetched: fetched, options: options, format: format)
            return result.response(to: request, options: options, policy: policy)
        }

        /// The source, timed and traced; its failures are marked as the source's (for the fallback image).
        func fetchSource(_ source: URL, validators: DiskCacheMetadata? = nil)
            async throws(ServiceError) -> SourceStore.Fetch
        {
            let clock = ContinuousClock()
            let fetching = clock.now
            defer { metrics.stage("downloading", took: clock.now - fetching) }
            do {
                return try await tracing.span("source.fetch") { () async throws(ServiceError) in
                    try await sources.fetch(source, validators: validators) { metrics.sourceFetched(bytes: $0) }
                }
            } catch {
                throw error.fromSource
            }
        }

        /// The source fetched without validators, so never a 304.
        func sourceEntry(_ source: URL) async throws(ServiceError) -> DiskCacheEntry {
            guard case .source(let entry) = try await fetchSource(source) else {
                throw SourceStore.unexpectedNotModified.fromSource
            }
            return entry
        }

        /// What `producer` makes of `data`: the bytes themselves, or a result made on the CPU threads.
        private func madeResult(from data: Data, by producer: ResultProducer, format: ImageFormat?)
            async throws(ServiceError) -> ProcessedResult
        {
            // An SVG's header is its whole document, parsed by librsvg (and an SVG answered as it
            // is gets sanitised): both steps run on the CPU threads, in one admission.
            if ImageFormat(detecting: data) == .svg {
                return try await onProcessingThreads(sourcePixels: 0) { () throws(ServiceError) in
                    try producer.produce(from: data, format: format)
                }
            }
            switch try producer.prepare(data, format: format) {
            case .passThrough(let same): return same
            case .process(let prepared): return try await make(prepared, with: producer)
            }
        }

        /// The fallback image, processed with the request's options, answered with the fallback
        /// status and TTL. Results are kept in memory only, under a key of their own.
        private func fallback(
            for request: ServiceRequest, options: ProcessingOptions, format: ImageFormat?, policy: ResponsePolicy,
            error: ServiceError
        ) async throws(ServiceError) -> ServiceResponse {
            guard let image = configuration.fallbackImage else { throw error }
            let key = "fallback:\(options.canonicalString)|\(OutputFormats.keyName(format, options: options))"
            let result: ProcessedResult
            do {
                if let kept = memory.result(forKey: key) {
                    result = kept
                } else {
                    let data = try await image.bytes(configuration: configuration, sources: sources)
                    result = try await runs.value(for: key) { [self] _ throws(ServiceError) in
                        let producer = ResultProducer(configuration: configuration, options: options, tracing: tracing)
                        let made = try await madeResult(from: data, by: producer, format: format)
                        memory.store(made, forKey: key)
                        return made
                    }
                }
            } catch let fallbackError {
                logger.warning(
                    "\(request.path): \(error.message); the fallback image failed too: \(fallbackError.message)")
                throw error
            }
            logger.warning("\(request.path): \(error.message); answering with the fallback image")
            var answer = policy
            answer.status = configuration.fallbackImageStatus > 0 ? configuration.fallbackImageStatus : error.status
            answer.fallbackTimeToLive = configuration.fallbackImageTimeToLive
            return result.response(to: request, options: options, policy: answer)
        }

        /// `raw`: the source's bytes as they came, without the checks, the processing queue or the
        /// result caches (the source cache still keeps them), typed by their first bytes.
        private func rawSource(
            _ source: URL, for request: ServiceRequest, options: ProcessingOptions, policy: ResponsePolicy
        ) async throws(ServiceError) -> ServiceResponse {
            let entry = try await sourceEntry(source)
            let type = ImageFormat(detecting: entry.data).mimeType ?? "application/octet-stream"
            var result = ProcessedResult(data: entry.data, contentType: type)
            result.source = SourceCaching(entry.metadata)
            return result.response(to: request, options: options, policy: policy)
        }

        /// The result for `key` from memory, else from the disk or S3.
        func cachedResult(forKey key: String) async -> ProcessedResult? {
            if let recent = memory.result(forKey: key) {
                metrics.cacheHit(tier: "memory")
                return recent
            }
            guard let (stored, tier) = await results.result(forKey: key) else { return nil }
            metrics.cacheHit(tier: tier)
            memory.store(stored, forKey: key)
            return stored
        }

        /// One shared run for `key`: its result, or the error every waiting request gets. The run
        /// starts from `fetched` when the source was fetched already.
        private func process(
            key: String, source: URL, fetched: DiskCacheEntry?, options: ProcessingOptions, format: ImageFormat?
        ) async throws(ServiceError) -> ProcessedResult {
            try await runs.value(for: key) { [self] _ throws(ServiceError) in
                let entry: DiskCacheEntry
                if let fetched {
                    entry = fetched
                } else {
                    entry = try await sourceEntry(source)
                }
                // The CPU stages run on the processing threads: their spans get their parent here.
                let marks = try await watermarks.marks(for: options.pipelines)
                let producer = ResultProducer(
                    configuration: configuration, options: options, tracing: tracing,
                    traceParent: tracing.currentContext, watermarks: marks)
                var produced = try await madeResult(from: entry.data, by: producer, format: format)
                produced.source = SourceCaching(entry.metadata)
                memory.store(produced, forKey: key)
                results.store(produced, forKey: key)
                return produced
            }
        }

        /// Waits for a worker in the lane the source's size calls for, then decodes, processes and
        /// encodes on the CPU threads.
        private func make(_ prepared: ResultProducer.Prepared, with producer: ResultProducer)
            async throws(ServiceError) -> ProcessedResult
        {
            try await onProcessingThreads(sourcePixels: prepared.sourcePixels) { () throws(ServiceError) in
                try producer.produce(prepared)
            }
        }

        /// Runs `work` on the CPU threads once a worker is free in the lane a source of
        /// `sourcePixels` calls for: the admission every decode goes through.
        func onProcessingThreads<T: Sendable>(
            sourcePixels: Int, _ work: @escaping @Sendable () throws(ServiceError) -> T
        ) async throws(ServiceError) -> T {
            let lane = sourcePixels >= configuration.largeSourcePixels ? 1 : 0
            let clock = ContinuousClock()
            let queued = clock.now
            let outcome: Result<T, ServiceError>
            do {
                outcome = try await processing.perform(lane: lane) { [executor, metrics] in
                    await executor.run {
                        let start = clock.now
                        metrics.stage("queue", took: start - queued)
                        defer {
                            metrics.processed(after: clock.now - start)
                            metrics.stage("processing", took: clock.now - start)
                        }
                        return Result { () throws(ServiceError) in try work() }
                    }
                }
            } catch {
                switch error {
                case .full: throw ServiceError(status: 429, message: "too many requests are waiting; try again later")
                case .expired: throw ServiceError(status: 503, message: "the request waited too long for processing")
                case .cancelled: throw .cancelled
                }
            }
            return try outcome.get()
        }
    }
#endif
