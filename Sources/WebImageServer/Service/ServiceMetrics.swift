#if Server
    import CoreMetrics
    import Foundation
    import Prometheus
    import WebImage

    /// What `GET /metrics` reports, in Prometheus text: requests by status, their durations, those
    /// in flight, the processing queue, cache hits by tier, source bytes fetched, processing time,
    /// the S3 tier's lookups, writes and round trips, and imgproxy's own metric names
    /// (``ImgproxyMetrics``). With a mirror (OpenTelemetry's metrics factory) every metric is also
    /// exported by OTLP under the same name.
    public final class ServiceMetrics: Sendable {
        /// The registry the metrics live in; the command line also exports the library's
        /// swift-metrics counters through it.
        public let registry: PrometheusCollectorRegistry
        private let sinks: MetricSinks
        private let inFlight: MirroredGauge
        private let duration: MirroredHistogram
        private let processing: MirroredHistogram
        private let sourceBytes: MirroredCounter
        private let queueDepth: MirroredGauge
        private let running: MirroredGauge
        private let hits: [String: MirroredCounter]
        private let misses: MirroredCounter
        private let s3Lookups: [String: MirroredCounter]
        private let s3Puts: [String: MirroredCounter]
        private let s3RoundTrips: MirroredCounter
        /// `webimage_requests_total`, by status, made as statuses appear.
        private let statuses = Locked<[Int: MirroredCounter]>([:])
        /// The same measurements under imgproxy's names.
        let imgproxy: ImgproxyMetrics

        static let latencyBuckets: [Duration] = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]

        /// Metrics in `registry`; imgproxy's names get `imgproxyNamespace` and `_` before them when
        /// given (imgproxy's `IMGPROXY_PROMETHEUS_NAMESPACE`); `mirror`, when given, gets every
        /// metric too (for OTLP export).
        public init(
            registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), imgproxyNamespace: String? = nil,
            mirror: (any MetricsFactory)? = nil
        ) {
            self.registry = registry
            let sinks = MetricSinks(registry: registry, mirror: mirror)
            self.sinks = sinks
            inFlight = sinks.gauge(Self.name("requests_in_flight", "", "Image requests being answered."))
            duration = sinks.histogram(
                Self.name("request_duration", "seconds", "Time to answer an image request."),
                buckets: Self.latencyBuckets)
            processing = sinks.histogram(
                Self.name("processing_duration", "seconds", "Time to decode, process and encode one result."),
                buckets: Self.latencyBuckets)
            sourceBytes = sinks.counter(Self.name("source", "bytes_total", "Bytes of sources downloaded."))
            queueDepth = sinks.gauge(Self.name("processing_queue_depth", "", "Results waiting for a worker."))
            running = sinks.gauge(Self.name("processing_running", "", "Results being made."))
            let hitName = Self.name("cache_hits", "total", "Results served from a cache, by tier.")
            hits = Dictionary(
                uniqueKeysWithValues: ["memory", "disk", "s3"].map {
                    ($0, sinks.counter(hitName, labels: [("tier", $0)]))
                })
            misses = sinks.counter(Self.name("cache_misses", "total", "Results that had to be made."))
            func outcomes(_ descriptor: MetricNameDescriptor, _ names: [String]) -> [String: MirroredCounter] {
                Dictionary(
                    uniqueKeysWithValues: names.map { ($0, sinks.counter(descriptor, labels: [("outcome", $0)])) })
            }
            s3Lookups = outcomes(
                Self.name("s3_lookups", "total", "S3 tier reads of results and sources, by outcome."),
                ["hit", "miss", "corrupt", "error", "skipped"])
            s3Puts = outcomes(Self.name("s3_puts", "total", "S3 tier writes, by outcome."), ["ok", "error", "skipped"])
            s3RoundTrips = sinks.counter(Self.name("s3_round_trips", "total", "Requests sent to S3."))
            imgproxy = ImgproxyMetrics(sinks: sinks, namespace: imgproxyNamespace)
        }

        private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "webimage", metricName: metric, unitName: unit, helpText: help)
        }

        /// Whether the metrics are exported by OTLP too (gauges are then kept current per request,
        /// not only when `/metrics` is read).
        var isMirrored: Bool { sinks.mirror != nil }

        func requestStarted() {
            inFlight.increment()
            imgproxy.requestStarted()
        }

        func requestFinished(status: Int, after elapsed: Duration) {
            inFlight.decrement()
            duration.record(elapsed)
            let counter = statuses.withLock { counters in
                if let counter = counters[status] { return counter }
                let counter = sinks.counter(
                    Self.name("requests", "total", "Image requests by status."), labels: [("status", String(status))])
                counters[status] = counter
                return counter
            }
            counter.increment()
            imgproxy.requestFinished(status: status, after: elapsed)
        }

        func cacheHit(tier: String) { hits[tier]?.increment() }
        func cacheMiss() { misses.increment() }
        /// An S3 read: `hit`, `miss`, `corrupt` (torn or foreign object), `error` or `skipped` (breaker open).
        func s3Lookup(_ outcome: String) { s3Lookups[outcome]?.increment() }
        /// An S3 write: `ok`, `error` or `skipped`.
        func s3Put(_ outcome: String) { s3Puts[outcome]?.increment() }
        func s3RoundTrip() { s3RoundTrips.increment() }
        func sourceFetched(bytes: Int) { sourceBytes.increment(by: Int64(bytes)) }
        func processed(after elapsed: Duration) { processing.record(elapsed) }
        /// Time one request spent in a stage imgproxy names: `queue`, `downloading` or `processing`.
        func stage(_ name: String, took elapsed: Duration) { imgproxy.spans[name]?.record(elapsed) }

        /// The queue gauges, and imgproxy's worker gauges, for `workers` configured.
        func queue(running count: Int, waiting: Int, workers: Int) {
            running.set(Double(count))
            queueDepth.set(Double(waiting))
            imgproxy.workers(configured: workers, busy: count)
        }

        /// The Prometheus text exposition of every metric in the registry.
        public func exposition() -> String { registry.emitToString() }
    }
#endif
