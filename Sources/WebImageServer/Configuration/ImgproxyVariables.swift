#if Server
    import Foundation
    import WebImage

    /// imgproxy's variables that no setting of ours reads (``ServeSetting/all``), and what
    /// `webimage serve` says about each at startup: never silence.
    ///
    /// Most are ignored with a line in the log. A few would leave the service open wider than the
    /// operator configured if they were ignored (an allow-list of `/info` options): for those the
    /// server does not start.
    package enum ImgproxyVariables {
        /// Why a variable is not honoured.
        package enum Reason: Sendable, Equatable {
            /// A feature of imgproxy that webimage does not have yet.
            case notYet
            /// Not applicable here, with the reason.
            case notApplicable(String)
        }

        /// One log line per imgproxy variable in `environment` that is not honoured, sorted by
        /// name; throws for a variable that must not be ignored.
        package static func notices(for environment: [String: String]) throws(ServeSettingError) -> [String] {
            let imgproxy = ImgproxyEnvironment(environment)
            var lines: [String] = []
            for name in environment.keys.sorted() where name.hasPrefix("IMGPROXY_") {
                guard let value = imgproxy[name] else { continue }
                if let refusal = refused[name], refusal.applies(value) {
                    throw ServeSettingError("\(name) is set, but \(refusal.because); unset it to start")
                }
                if let condition = honouredWhen[name] {
                    if condition.accepts(value) { continue }
                    lines.append("\(name)=\(value) is ignored (\(condition.because))")
                    continue
                }
                if ServeSetting.mappedImgproxyVariables.contains(name) { continue }
                lines.append("\(name) is ignored (\(describe(reason(for: name))))")
            }
            return lines
        }

        /// Why `name` is not honoured; nil for a name imgproxy does not document.
        package static func reason(for name: String) -> Reason? {
            if let reason = unsupported[name] { return reason }
            return families.first { name.hasPrefix($0.prefix) }?.reason
        }

        private static func describe(_ reason: Reason?) -> String {
            switch reason {
            case .notYet: "not supported yet"
            case .notApplicable(let why): why
            case nil: "not an imgproxy setting webimage knows"
            }
        }

        /// A variable whose value decides whether ours already behave as it asks.
        struct Condition: Sendable {
            let accepts: @Sendable (String) -> Bool
            let because: String
        }

        /// A variable the server refuses to start with (when `applies` to its value).
        struct Refusal: Sendable {
            let applies: @Sendable (String) -> Bool
            let because: String
        }

        private static let isTrue: @Sendable (String) -> Bool = { SettingParsing.bool($0) == true }
        private static let isFalse: @Sendable (String) -> Bool = { SettingParsing.bool($0) == false }

        static let refused: [String: Refusal] = [:]

        static let honouredWhen: [String: Condition] = [
            "IMGPROXY_USE_ETAG": Condition(accepts: isTrue, because: "an ETag is always sent"),
            "IMGPROXY_USE_LAST_MODIFIED": Condition(accepts: isTrue, because: "Last-Modified is always sent"),
            "IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES": Condition(
                accepts: isFalse, because: "link-local sources are always refused"),
            "IMGPROXY_SIGNATURE_SIZE": Condition(
                accepts: { $0 == "32" }, because: "signatures are checked in full, 32 bytes; shorter ones not yet"),
            "IMGPROXY_CACHE_USE": Condition(
                accepts: { ["fs", "s3"].contains($0.lowercased()) }, because: "only the fs and s3 caches are supported"),
            "IMGPROXY_CACHE_S3_ENDPOINT_USE_PATH_STYLE": Condition(
                accepts: isTrue, because: "S3 requests are always path-style"),
            "IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR": Condition(
                accepts: { $0.lowercased() == "random" }, because: "trace ids are random"),
        ]

        /// imgproxy's documented variables that no setting reads, by name.
        static let unsupported: [String: Reason] = {
            var reasons: [String: Reason] = [:]
            for name in [
                "USER_AGENT", "DOWNLOAD_TIMEOUT",
                "PRESETS_SEPARATOR",
                "BASE64_URL_INCLUDES_FILENAME", "ARGUMENTS_SEPARATOR", "STRIP_METADATA",
                "STRIP_COLOR_PROFILE", "AUTO_ROTATE", "RETURN_ATTACHMENT",
                "SET_CANONICAL_HEADER",
                "ENABLE_DEBUG_HEADERS", "ETAG_BUSTER", "LAST_MODIFIED_BUSTER", "ALLOW_ORIGIN", "HEALTH_CHECK_PATH",
                "HEALTH_CHECK_MESSAGE", "SOURCE_URL_ENCRYPTION_KEY", "ALLOW_BYPASS_CACHE",
                "MAX_CLIENTS", "READ_REQUEST_TIMEOUT", "WRITE_RESPONSE_TIMEOUT", "KEEP_ALIVE_TIMEOUT",
                "CLIENT_KEEP_ALIVE_TIMEOUT", "GRACEFUL_STOP_TIMEOUT", "IGNORE_SSL_VERIFICATION",
                "LOCAL_FILESYSTEM_ROOT",
                "USE_S3", "USE_GCS", "USE_ABS", "USE_SWIFT", "SOURCE_URL_QUERY_SEPARATOR", "CUSTOM_REQUEST_HEADERS",
                "CUSTOM_RESPONSE_HEADERS", "CUSTOM_HEADERS_SEPARATOR",
                "REQUEST_HEADERS_PASSTHROUGH", "RESPONSE_HEADERS_PASSTHROUGH", "SERVER_NAME", "MAX_CHAINED_PIPELINES",
                "ENABLE_RAW_FORMATS", "STRIP_METADATA_DPI", "COLOR_PROFILES_DIR", "PDF_NO_BACKGROUND",
                "CACHE_KEY_HEADERS", "CACHE_KEY_COOKIES", "CACHE_REPORT_ERRORS", "CACHE_TAGS_FORMAT",
                "CACHE_S3_USE_DECRYPTION_CLIENT", "CACHE_S3_ASSUME_ROLE_ARN", "CACHE_S3_ASSUME_ROLE_EXTERNAL_ID",
            ] {
                reasons["IMGPROXY_" + name] = .notYet
            }
            let notApplicable: [(String, String)] = [
                ("AUTOQUALITY_JPEG_NET", "no neural network models; use the dssim method"),
                ("AUTOQUALITY_WEBP_NET", "no neural network models; use the dssim method"),
                ("AUTOQUALITY_AVIF_NET", "no neural network models; use the dssim method"),
                ("AUTOQUALITY_JXL_NET", "no neural network models; use the dssim method"),
                ("AUTOQUALITY_ML_INFERENCE_NUM_STREAMS", "no neural network models"),
                ("AUTOQUALITY_ML_INFERENCE_NUM_THREADS", "no neural network models"),
                ("AUTOQUALITY_ML_EXECUTION_MODE", "no neural network models"),
                ("AUTOQUALITY_ML_CPU_PINNING", "no neural network models"),
                ("PROMETHEUS_BIND", "metrics are served at /metrics on the service's own port"),
                ("OPEN_TELEMETRY_ENABLE_LOGS", "logs go to standard error"),
                ("OPEN_TELEMETRY_LOGGER_NAME", "logs go to standard error"),
                ("OPEN_TELEMETRY_SERVER_CERT", "set OTEL_EXPORTER_OTLP_CERTIFICATE to a file instead"),
                ("OPEN_TELEMETRY_CLIENT_CERT", "set OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE to a file instead"),
                ("OPEN_TELEMETRY_CLIENT_KEY", "set OTEL_EXPORTER_OTLP_CLIENT_KEY to a file instead"),
                ("SO_REUSEPORT", "one process serves every connection"),
                ("CONCURRENCY", "replaced by IMGPROXY_WORKERS"),
                ("LOG_MEM_STATS", "a Go runtime setting"),
                ("PPROF_BIND", "a Go runtime setting"), ("DOWNLOAD_BUFFER_SIZE", "a Go runtime setting"),
                ("BUFFER_POOL_CALIBRATION_THRESHOLD", "a Go runtime setting"), ("MALLOC", "a Docker image setting"),
                ("USE_LINEAR_COLORSPACE", "a libvips setting"), ("DISABLE_SHRINK_ON_LOAD", "a libvips setting"),
                ("PNG_UNLIMITED", "a libvips limit; webimage's pixel and byte limits apply"),
                ("SVG_UNLIMITED", "a libvips limit; webimage's pixel and byte limits apply"),
                ("TIFF_UNLIMITED", "a libvips limit; webimage's pixel and byte limits apply"),
                ("FAIL_ON_DEPRECATION", "webimage has no deprecated settings"),
                ("DEVELOPMENT_ERRORS_MODE", "errors are always plain text"),
                ("REPORT_DOWNLOADING_ERRORS", "no error reporter"), ("REPORT_IO_ERRORS", "no error reporter"),
                ("LICENSE_KEY", "webimage needs no licence"), ("LICENSE_DEVELOPMENT_MODE", "webimage needs no licence"),
            ]
            for (name, why) in notApplicable { reasons["IMGPROXY_" + name] = .notApplicable(why) }
            return reasons
        }()

        /// Families of imgproxy variables, by prefix.
        static let families: [(prefix: String, reason: Reason)] =
            [
                "FALLBACK_IMAGE_PREPROCESS_URL", "FALLBACK_IMAGES_", "COOKIE_",
                "JPEG_", "PNG_", "WEBP_", "AVIF_",
                "JXL_", "VIDEO_THUMBNAIL", "SMART_CROP_", "UNSHARP_MASKING_", "ML_", "OBJECT_DETECTION_",
                "CLASSIFICATION_", "S3_", "GCS_", "ABS_", "SWIFT_", "CACHE_",
            ].map { ("IMGPROXY_" + $0, Reason.notYet) }
            + [
                ("NEW_RELIC_", "use OpenTelemetry"), ("DATADOG_", "use OpenTelemetry"),
                ("CLOUD_WATCH_", "use OpenTelemetry"),
                ("SENTRY_", "no error reporter"), ("BUGSNAG_", "no error reporter"),
                ("HONEYBADGER_", "no error reporter"),
                ("AIRBRAKE_", "no error reporter"), ("SYSLOG_", "logs go to standard error"),
                ("ENV_", "load the variables into the environment before starting"), ("VIPS_", "a libvips setting"),
            ].map { ("IMGPROXY_" + $0.0, Reason.notApplicable($0.1)) }
    }
#endif
