#if Server
    import Prometheus
    import Synchronization
    import WebImage

    /// imgproxy's metrics under imgproxy's names (its Prometheus and OpenTelemetry docs), so that
    /// dashboards made for imgproxy work: `requests_total`, `status_codes_total{status}`,
    /// `errors_total{type}`, `request_duration_seconds`, `request_span_duration_seconds{span}` with
    /// `queue`, `downloading` and `processing`, `workers`, `requests_in_progress`,
    /// `images_in_progress` and `workers_utilization` (requests in progress per worker, in percent).
    final class ImgproxyMetrics: Sendable {
        let requests: MirroredCounter
        let duration: MirroredHistogram
        let spans: [String: MirroredHistogram]
        let requestsInProgress: MirroredGauge
        private let workersGauge: MirroredGauge
        private let imagesInProgress: MirroredGauge
        private let utilization: MirroredGauge
        private let errors: [String: MirroredCounter]
        private let statusCodes = Locked<[Int: MirroredCounter]>([:])
        private let inProgress = Atomic<Int>(0)
        private let sinks: MetricSinks
        private let namespace: String?

        init(sinks: MetricSinks, namespace: String?) {
            self.sinks = sinks
            self.namespace = namespace
            func name(_ metric: String, _ help: String) -> MetricNameDescriptor {
                MetricNameDescriptor(namespace: namespace, metricName: metric, unitName: "", helpText: help)
            }
            requests = sinks.counter(
                name("requests_total", "A counter of the total number of HTTP requests processed."))
            duration = sinks.histogram(
                name("request_duration_seconds", "A histogram of the response latency."),
                buckets: ServiceMetrics.latencyBuckets)
            let spanName = name(
                "request_span_duration_seconds", "A histogram of the request spans duration by span name.")
            spans = Dictionary(
                uniqueKeysWithValues: ["queue", "downloading", "processing"].map {
                    ($0, sinks.histogram(spanName, labels: [("span", $0)], buckets: ServiceMetrics.latencyBuckets))
                })
            let errorName = name("errors_total", "A counter of the occurred errors separated by type.")
            errors = Dictionary(
                uniqueKeysWithValues: ["path_parsing", "security", "queue", "timeout", "download", "processing"].map {
                    ($0, sinks.counter(errorName, labels: [("type", $0)]))
                })
            workersGauge = sinks.gauge(name("workers", "A gauge of the number of running workers."))
            requestsInProgress = sinks.gauge(
                name("requests_in_progress", "A gauge of the number of requests in progress."))
            imagesInProgress = sinks.gauge(name("images_in_progress", "A gauge of the number of images in progress."))
            utilization = sinks.gauge(name("workers_utilization", "A gauge of the workers utilization in percents."))
        }

        func requestStarted() {
            inProgress.add(1, ordering: .relaxed)
            requestsInProgress.increment()
        }

        func requestFinished(status: Int, after elapsed: Duration) {
            inProgress.subtract(1, ordering: .relaxed)
            requestsInProgress.decrement()
            requests.increment()
            duration.record(elapsed)
            let counter = statusCodes.withLock { counters in
                if let counter = counters[status] { return counter }
                let counter = sinks.counter(
                    MetricNameDescriptor(
                        namespace: namespace, metricName: "status_codes_total", unitName: "",
                        helpText: "A counter of the response status codes."),
                    labels: [("status", String(status))])
                counters[status] = counter
                return counter
            }
            counter.increment()
            if let type = Self.errorType(status: status) { errors[type]?.increment() }
        }

        /// The worker gauges: `configured` workers, `busy` of them making images.
        func workers(configured: Int, busy: Int) {
            workersGauge.set(Double(configured))
            imagesInProgress.set(Double(busy))
            let requests = inProgress.load(ordering: .relaxed)
            utilization.set(configured > 0 ? Double(requests) / Double(configured) * 100 : 0)
        }

        /// imgproxy's error category for a response status; nil for a success.
        static func errorType(status: Int) -> String? {
            switch status {
            case 400: "path_parsing"
            case 403: "security"
            case 429: "queue"
            case 503, 504: "timeout"
            case 404, 502: "download"
            case 400...: "processing"
            default: nil
            }
        }
    }
#endif
