import Foundation
import Prometheus
import WebImage

/// What `GET /metrics` reports, in Prometheus text: requests by status, their durations, those
/// in flight, the processing queue, cache hits by tier, source bytes fetched, processing time,
/// and the S3 tier's lookups, writes and round trips.
public final class ServiceMetrics: Sendable {
    /// The registry the metrics live in; the command line also exports the library's
    /// swift-metrics counters through it.
    public let registry: PrometheusCollectorRegistry

    private let inFlight: Gauge
    private let duration: DurationHistogram
    private let processing: DurationHistogram
    private let sourceBytes: Counter
    private let queueDepth: Gauge
    private let running: Gauge
    private let hits: [String: Counter]
    private let misses: Counter
    private let s3Lookups: [String: Counter]
    private let s3Puts: [String: Counter]
    private let s3RoundTrips: Counter

    static let latencyBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(namespace: "webimage", metricName: metric, unitName: unit, helpText: help)
        }
        inFlight = registry.makeGauge(descriptor: name("requests_in_flight", "", "Image requests being answered."))
        duration = registry.makeDurationHistogram(
            descriptor: name("request_duration", "seconds", "Time to answer an image request."),
            buckets: Self.latencyBuckets)
        processing = registry.makeDurationHistogram(
            descriptor: name("processing_duration", "seconds", "Time to decode, process and encode one result."),
            buckets: Self.latencyBuckets)
        sourceBytes = registry.makeCounter(
            descriptor: name("source", "bytes_total", "Bytes of sources downloaded."))
        queueDepth = registry.makeGauge(descriptor: name("processing_queue_depth", "", "Results waiting for a worker."))
        running = registry.makeGauge(descriptor: name("processing_running", "", "Results being made."))
        let hitName = name("cache_hits", "total", "Results served from a cache, by tier.")
        hits = Dictionary(
            uniqueKeysWithValues: ["memory", "disk", "s3"].map {
                ($0, registry.makeCounter(descriptor: hitName, labels: [("tier", $0)]))
            })
        misses = registry.makeCounter(descriptor: name("cache_misses", "total", "Results that had to be made."))
        func outcomes(_ descriptor: MetricNameDescriptor, _ names: [String]) -> [String: Counter] {
            Dictionary(
                uniqueKeysWithValues: names.map {
                    ($0, registry.makeCounter(descriptor: descriptor, labels: [("outcome", $0)]))
                })
        }
        s3Lookups = outcomes(
            name("s3_lookups", "total", "S3 tier reads of results and sources, by outcome."),
            ["hit", "miss", "corrupt", "error", "skipped"])
        s3Puts = outcomes(
            name("s3_puts", "total", "S3 tier writes, by outcome."), ["ok", "error", "skipped"])
        s3RoundTrips = registry.makeCounter(
            descriptor: name("s3_round_trips", "total", "Requests sent to S3."))
    }

    func requestStarted() { inFlight.increment() }

    func requestFinished(status: Int, after elapsed: Duration) {
        inFlight.decrement()
        duration.record(elapsed)
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "webimage", metricName: "requests", unitName: "total", helpText: "Image requests by status."),
            labels: [("status", String(status))]
        ).increment()
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

    func queue(running count: Int, waiting: Int) {
        running.set(Double(count))
        queueDepth.set(Double(waiting))
    }

    /// The Prometheus text exposition of every metric in the registry.
    public func exposition() -> String { registry.emitToString() }
}
