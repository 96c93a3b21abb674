#if Server
    import CoreMetrics
    import Logging
    import OTel
    import ServiceLifecycle
    import Tracing
    import WebImage
    import WebImageServer

    /// `webimage serve`'s OpenTelemetry exporters (swift-otel, OTLP over HTTP), made as
    /// ``TelemetrySettings`` say; nothing at all when it exports nothing.
    ///
    /// The tracer and the metrics factory are handed to the service explicitly rather than
    /// bootstrapped process-wide, so that the exporter's own HTTP client makes no spans of its own.
    struct ServeTelemetry {
        /// Where the service's spans go; nil when traces are not exported.
        var tracer: (any Tracer)?
        /// Where the service's metrics go besides `/metrics`; nil when metrics are not exported.
        var metricsFactory: (any MetricsFactory)?
        /// The exporters' background work, to run beside the server.
        var services: [any Service] = []

        /// The exporters `settings` ask for; swift-otel reads the rest of the `OTEL_*` variables.
        init(_ settings: TelemetrySettings, logger: Logger) throws {
            guard settings.exportsTraces || settings.exportsMetrics else { return }
            var configuration = OTel.Configuration.default
            configuration.serviceName = settings.serviceName
            configuration.diagnosticLogger = .custom(logger)
            // swift-otel reports every OTEL_* variable it reads at info; OTEL_LOG_LEVEL still wins.
            configuration.diagnosticLogLevel = .warning
            configuration.logs.enabled = false
            configuration.traces.enabled = settings.exportsTraces
            configuration.metrics.enabled = settings.exportsMetrics
            do {
                if settings.exportsTraces {
                    let backend = try OTel.makeTracingBackend(configuration: configuration)
                    tracer = backend.factory
                    services.append(backend.service)
                }
                if settings.exportsMetrics {
                    let backend = try OTel.makeMetricsBackend(configuration: configuration)
                    metricsFactory = backend.factory
                    services.append(backend.service)
                }
            } catch {
                throw CommandFailure("OpenTelemetry: \(error)", exitCode: 2)
            }
        }
    }
#endif
