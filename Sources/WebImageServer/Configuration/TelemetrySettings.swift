#if Server
    import Foundation
    import WebImage

    /// Which OpenTelemetry signals `webimage serve` exports over OTLP/HTTP, from OpenTelemetry's
    /// standard variables and imgproxy's switches.
    ///
    /// Traces are exported when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
    /// is set, or `IMGPROXY_OPEN_TELEMETRY_ENABLE` is true; metrics when `OTEL_EXPORTER_OTLP_ENDPOINT`
    /// or `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` is set, or `IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS`
    /// is true. `OTEL_SDK_DISABLED=true` and `OTEL_TRACES_EXPORTER`/`OTEL_METRICS_EXPORTER=none`
    /// turn them off. The protocol is `http/protobuf` (the default) or `http/json`; the rest
    /// (endpoint, headers, timeouts, batching, service name) is read by swift-otel itself.
    package struct TelemetrySettings: Sendable, Equatable {
        package var exportsTraces = false
        package var exportsMetrics = false
        /// `OTEL_SERVICE_NAME`, else `webimage`.
        package var serviceName = "webimage"

        package init() {}

        package init(environment: [String: String], options: ServeOptions) throws(ServeSettingError) {
            let variables = ImgproxyEnvironment(environment)
            if try variables.bool("OTEL_SDK_DISABLED") == true { return }
            let shared = variables["OTEL_EXPORTER_OTLP_ENDPOINT"] != nil
            exportsTraces =
                (shared || variables["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] != nil || options.imgproxyTraces == true)
                && variables["OTEL_TRACES_EXPORTER"]?.lowercased() != "none"
            exportsMetrics =
                (shared || variables["OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"] != nil || options.imgproxyMetrics == true)
                && variables["OTEL_METRICS_EXPORTER"]?.lowercased() != "none"
            for (signal, exported) in [("TRACES", exportsTraces), ("METRICS", exportsMetrics)] where exported {
                for name in ["OTEL_EXPORTER_OTLP_\(signal)_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"] {
                    guard let value = variables[name] else { continue }
                    guard ["http/protobuf", "http/json"].contains(value) else {
                        throw ServeSettingError(
                            "\(name) must be http/protobuf or http/json (OTLP over gRPC is not built in), got \(value)")
                    }
                }
                if let value = variables["OTEL_\(signal)_EXPORTER"], value.lowercased() != "otlp" {
                    throw ServeSettingError("OTEL_\(signal)_EXPORTER must be otlp or none, got \(value)")
                }
            }
            serviceName = variables["OTEL_SERVICE_NAME"] ?? serviceName
        }
    }
#endif
