#if Server
    import CoreMetrics
    import Prometheus
    import WebImage

    /// Where a metric is kept: the Prometheus registry `GET /metrics` reads, and, when the service
    /// also exports by OTLP, a swift-metrics backend (OpenTelemetry's) under the same name.
    struct MetricSinks: Sendable {
        let registry: PrometheusCollectorRegistry
        let mirror: (any MetricsFactory)?

        func counter(_ descriptor: MetricNameDescriptor, labels: [(String, String)] = []) -> MirroredCounter {
            MirroredCounter(
                local: registry.makeCounter(descriptor: descriptor, labels: labels),
                mirror: mirror?.makeCounter(label: descriptor.name, dimensions: labels))
        }

        func gauge(_ descriptor: MetricNameDescriptor) -> MirroredGauge {
            MirroredGauge(
                local: registry.makeGauge(descriptor: descriptor),
                mirror: mirror?.makeMeter(label: descriptor.name, dimensions: []))
        }

        func histogram(_ descriptor: MetricNameDescriptor, labels: [(String, String)] = [], buckets: [Duration])
            -> MirroredHistogram
        {
            MirroredHistogram(
                local: registry.makeDurationHistogram(descriptor: descriptor, labels: labels, buckets: buckets),
                mirror: mirror?.makeTimer(label: descriptor.name, dimensions: labels))
        }
    }

    /// A counter in the registry and, when exporting by OTLP, in the mirror.
    struct MirroredCounter: Sendable {
        let local: Prometheus.Counter
        let mirror: (any CounterHandler)?

        func increment(by amount: Int64 = 1) {
            local.increment(by: amount)
            mirror?.increment(by: amount)
        }
    }

    /// A gauge in the registry and, when exporting by OTLP, in the mirror.
    struct MirroredGauge: Sendable {
        let local: Prometheus.Gauge
        let mirror: (any MeterHandler)?

        func set(_ value: Double) {
            local.set(to: value)
            mirror?.set(value)
        }

        func increment() {
            local.increment()
            mirror?.increment(by: 1)
        }

        func decrement() {
            local.decrement()
            mirror?.decrement(by: 1)
        }
    }

    /// A histogram of durations in the registry and, when exporting by OTLP, in the mirror.
    struct MirroredHistogram: Sendable {
        let local: DurationHistogram
        let mirror: (any TimerHandler)?

        func record(_ duration: Duration) {
            local.record(duration)
            if let mirror {
                let (seconds, attoseconds) = duration.components
                mirror.recordNanoseconds(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
            }
        }
    }
#endif
