#if Server
    import Foundation
    import WebImage

    /// One setting of `webimage serve`: its flag, its `WEBIMAGE_*` variable, and the imgproxy
    /// variables that mean the same thing.
    ///
    /// A value is taken from the flag, else from the `WEBIMAGE_*` variable, else from imgproxy's
    /// variables (so that an imgproxy environment file works unchanged), else the default stands.
    ///
    /// This is a table of our own rather than `apple/swift-configuration` (1.4.0), which was tried
    /// first. Its readers turn a value that does not parse into "absent" and fall back to the
    /// default (only the `required`/`fetch` forms throw, and then a missing value is an error too),
    /// while here a bad value must stop the server with the name of the variable or flag that gave
    /// it. And imgproxy's variables are not a renaming of ours: they use other units (megapixels;
    /// 0 meaning "no limit"), one variable feeds two settings (`IMGPROXY_BIND`), several feed one
    /// (`IMGPROXY_AUTO_WEBP` and `IMGPROXY_AUTO_AVIF`), some count only beside another
    /// (`IMGPROXY_CACHE_USE`), and the unsupported ones must be found in the whole environment. A
    /// provider for it would have held this table anyway; the reader around it added nothing.
    package struct ServeSetting: Sendable {
        /// The name the setting is looked up by: the flag's name, e.g. `max-source-bytes`.
        package let key: String
        /// The flag's name without its dashes, e.g. `max-source-bytes`; nil for a setting that has
        /// only imgproxy's variable.
        package let flag: String?
        /// The `WEBIMAGE_*` variable, e.g. `WEBIMAGE_MAX_SOURCE_BYTES`.
        package let variable: String?
        /// How imgproxy's variables give this setting, if they do.
        package let imgproxy: ImgproxyMapping?

        /// A setting with flag `--flag`, variable `WEBIMAGE_FLAG` (unless `variable` names another)
        /// and, optionally, an imgproxy mapping.
        init(_ flag: String, variable: String? = nil, imgproxy: ImgproxyMapping? = nil) {
            key = flag
            self.flag = flag
            self.variable = variable ?? "WEBIMAGE_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
            self.imgproxy = imgproxy
        }

        /// A setting that only imgproxy's variables give (there is no flag for it).
        init(imgproxyOnly key: String, _ mapping: ImgproxyMapping) {
            flag = nil
            variable = nil
            imgproxy = mapping
            self.key = key
        }
    }

    extension ServeSetting {
        /// Every setting of `webimage serve`. A new flag joins here, with the imgproxy variable that
        /// means the same (and leaves ``ImgproxyVariables/unsupported`` if it was listed there).
        package static let all: [ServeSetting] = [
            ServeSetting("host", imgproxy: .bindAddress(.host)),
            ServeSetting("port", imgproxy: .bindAddress(.port)),
            ServeSetting("cache-dir", imgproxy: .cacheStorage("fs", "IMGPROXY_CACHE_FS_ROOT")),
            ServeSetting("key", imgproxy: .same("IMGPROXY_KEY")),
            ServeSetting("salt", imgproxy: .same("IMGPROXY_SALT")),
            ServeSetting(
                "trusted-signature", variable: "WEBIMAGE_TRUSTED_SIGNATURES",
                imgproxy: .same("IMGPROXY_TRUSTED_SIGNATURES")),
            ServeSetting("secret", imgproxy: .same("IMGPROXY_SECRET")),
            ServeSetting("path-prefix", imgproxy: .same("IMGPROXY_PATH_PREFIX")),
            ServeSetting(
                "allowed-option", variable: "WEBIMAGE_ALLOWED_OPTIONS",
                imgproxy: .same("IMGPROXY_ALLOWED_PROCESSING_OPTIONS")),
            ServeSetting("base-url", imgproxy: .same("IMGPROXY_BASE_URL")),
            ServeSetting(
                "url-replacement", variable: "WEBIMAGE_URL_REPLACEMENTS", imgproxy: .same("IMGPROXY_URL_REPLACEMENTS")),
            ServeSetting("max-redirects", imgproxy: .same("IMGPROXY_MAX_REDIRECTS")),
            ServeSetting("watermark-path", imgproxy: .same("IMGPROXY_WATERMARK_PATH")),
            ServeSetting("watermark-data", imgproxy: .same("IMGPROXY_WATERMARK_DATA")),
            ServeSetting("watermark-url", imgproxy: .same("IMGPROXY_WATERMARK_URL")),
            ServeSetting("watermark-opacity", imgproxy: .same("IMGPROXY_WATERMARK_OPACITY")),
            ServeSetting("watermark-font"),
            ServeSetting("watermarks-cache-size", imgproxy: .same("IMGPROXY_WATERMARKS_CACHE_SIZE")),
            ServeSetting("watermark-preprocess-url", imgproxy: .same("IMGPROXY_WATERMARK_PREPROCESS_URL")),
            ServeSetting("allow-loopback-sources", imgproxy: .same("IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES")),
            ServeSetting("allow-private-sources", imgproxy: .same("IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES")),
            ServeSetting(
                "allowed-source", variable: "WEBIMAGE_ALLOWED_SOURCES", imgproxy: .same("IMGPROXY_ALLOWED_SOURCES")),
            ServeSetting("max-source-bytes", imgproxy: .zeroMeansNoLimit("IMGPROXY_MAX_SRC_FILE_SIZE")),
            ServeSetting("max-source-pixels", imgproxy: .megapixels("IMGPROXY_MAX_SRC_RESOLUTION")),
            ServeSetting("max-animation-frames", imgproxy: .same("IMGPROXY_MAX_ANIMATION_FRAMES")),
            ServeSetting(
                "max-animation-frame-pixels",
                imgproxy: .megapixels("IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION", allowsZero: true)),
            ServeSetting("max-result-dimension", imgproxy: .same("IMGPROXY_MAX_RESULT_DIMENSION")),
            ServeSetting("allow-security-options", imgproxy: .same("IMGPROXY_ALLOW_SECURITY_OPTIONS")),
            ServeSetting("workers", imgproxy: .same("IMGPROXY_WORKERS")),
            ServeSetting("queue", imgproxy: .zeroMeansNoLimit("IMGPROXY_REQUESTS_QUEUE_SIZE")),
            ServeSetting("large-source-pixels"),
            ServeSetting("large-source-workers"),
            ServeSetting("timeout", imgproxy: .same("IMGPROXY_TIMEOUT")),
            ServeSetting("ttl", imgproxy: .same("IMGPROXY_TTL")),
            ServeSetting("quality", imgproxy: .same("IMGPROXY_QUALITY")),
            ServeSetting("format-quality", imgproxy: .same("IMGPROXY_FORMAT_QUALITY")),
            ServeSetting("no-auto-format"),
            ServeSetting("auto-format", variable: "WEBIMAGE_AUTO_FORMATS", imgproxy: .formatDetection),
            ServeSetting("enforce-webp", imgproxy: .same("IMGPROXY_ENFORCE_WEBP")),
            ServeSetting("enforce-avif", imgproxy: .same("IMGPROXY_ENFORCE_AVIF")),
            ServeSetting("enforce-jxl", imgproxy: .same("IMGPROXY_ENFORCE_JXL")),
            ServeSetting("preferred-formats", imgproxy: .same("IMGPROXY_PREFERRED_FORMATS")),
            ServeSetting("autoquality-method", imgproxy: .same("IMGPROXY_AUTOQUALITY_METHOD")),
            ServeSetting("autoquality-target", imgproxy: .same("IMGPROXY_AUTOQUALITY_TARGET")),
            ServeSetting("autoquality-min", imgproxy: .same("IMGPROXY_AUTOQUALITY_MIN")),
            ServeSetting("autoquality-max", imgproxy: .same("IMGPROXY_AUTOQUALITY_MAX")),
            ServeSetting("autoquality-format-min", imgproxy: .same("IMGPROXY_AUTOQUALITY_FORMAT_MIN")),
            ServeSetting("autoquality-format-max", imgproxy: .same("IMGPROXY_AUTOQUALITY_FORMAT_MAX")),
            ServeSetting("autoquality-allowed-error", imgproxy: .same("IMGPROXY_AUTOQUALITY_ALLOWED_ERROR")),
            ServeSetting(
                "autoquality-max-result-pixels",
                imgproxy: .megapixels("IMGPROXY_AUTOQUALITY_MAX_RESOLUTION", allowsZero: true)),
            ServeSetting(
                "best-format-complexity-threshold", imgproxy: .same("IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD")),
            ServeSetting(
                "best-format-max-result-pixels",
                imgproxy: .megapixels("IMGPROXY_BEST_FORMAT_MAX_RESOLUTION", allowsZero: true)),
            ServeSetting("best-format-by-default", imgproxy: .same("IMGPROXY_BEST_FORMAT_BY_DEFAULT")),
            ServeSetting("best-format-allow-skips", imgproxy: .same("IMGPROXY_BEST_FORMAT_ALLOW_SKIPS")),
            ServeSetting("client-hints", imgproxy: .same("IMGPROXY_ENABLE_CLIENT_HINTS")),
            ServeSetting("cache-control-passthrough", imgproxy: .same("IMGPROXY_CACHE_CONTROL_PASSTHROUGH")),
            ServeSetting("fallback-image-path", imgproxy: .same("IMGPROXY_FALLBACK_IMAGE_PATH")),
            ServeSetting("fallback-image-data", imgproxy: .same("IMGPROXY_FALLBACK_IMAGE_DATA")),
            ServeSetting("fallback-image-url", imgproxy: .same("IMGPROXY_FALLBACK_IMAGE_URL")),
            ServeSetting("fallback-image-status", imgproxy: .same("IMGPROXY_FALLBACK_IMAGE_HTTP_CODE")),
            ServeSetting("fallback-image-ttl", imgproxy: .same("IMGPROXY_FALLBACK_IMAGE_TTL")),
            ServeSetting("preset", variable: "WEBIMAGE_PRESETS", imgproxy: .same("IMGPROXY_PRESETS")),
            ServeSetting(
                "skip-processing-format", variable: "WEBIMAGE_SKIP_PROCESSING_FORMATS",
                imgproxy: .same("IMGPROXY_SKIP_PROCESSING_FORMATS")),
            ServeSetting("presets-file", imgproxy: .same("IMGPROXY_PRESETS_PATH")),
            ServeSetting("keep-copyright", imgproxy: .same("IMGPROXY_KEEP_COPYRIGHT")),
            ServeSetting("enforce-thumbnail", imgproxy: .same("IMGPROXY_ENFORCE_THUMBNAIL")),
            ServeSetting("preserve-hdr", imgproxy: .same("IMGPROXY_PRESERVE_HDR")),
            ServeSetting("sanitize-svg", imgproxy: .same("IMGPROXY_SANITIZE_SVG")),
            ServeSetting("always-rasterize-svg", imgproxy: .same("IMGPROXY_ALWAYS_RASTERIZE_SVG")),
            ServeSetting("only-presets", imgproxy: .same("IMGPROXY_ONLY_PRESETS")),
            ServeSetting("info-preset", variable: "WEBIMAGE_INFO_PRESETS", imgproxy: .same("IMGPROXY_INFO_PRESETS")),
            ServeSetting("info-presets-file", imgproxy: .same("IMGPROXY_INFO_PRESETS_PATH")),
            ServeSetting("info-only-presets", imgproxy: .same("IMGPROXY_INFO_ONLY_PRESETS")),
            ServeSetting(
                "allowed-info-option", variable: "WEBIMAGE_ALLOWED_INFO_OPTIONS",
                imgproxy: .same("IMGPROXY_ALLOWED_INFO_OPTIONS")),
            ServeSetting("drain-delay"),
            ServeSetting("free-memory-interval", imgproxy: .same("IMGPROXY_FREE_MEMORY_INTERVAL")),
            ServeSetting("demo"),
            ServeSetting("s3-endpoint", imgproxy: .cacheS3Endpoint),
            ServeSetting("s3-bucket", imgproxy: .cacheStorage("s3", "IMGPROXY_CACHE_BUCKET")),
            ServeSetting("s3-region", imgproxy: .cacheStorage("s3", "IMGPROXY_CACHE_S3_REGION")),
            ServeSetting("s3-prefix", imgproxy: .cacheStorage("s3", "IMGPROXY_CACHE_PATH_PREFIX")),
            ServeSetting("s3-sources"),
            ServeSetting("s3-timeout"),
            ServeSetting("log-format", imgproxy: .logFormat),
            ServeSetting("log-level", imgproxy: .logLevel),
            ServeSetting("metrics-namespace", imgproxy: .same("IMGPROXY_PROMETHEUS_NAMESPACE")),
            // Telemetry is set by OpenTelemetry's own OTEL_* variables; these are imgproxy's switches.
            ServeSetting(imgproxyOnly: "otel-traces", .same("IMGPROXY_OPEN_TELEMETRY_ENABLE")),
            ServeSetting(imgproxyOnly: "otel-metrics", .same("IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS")),
            ServeSetting(
                imgproxyOnly: "otel-propagate-to-sources", .same("IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL")),
        ]

        /// The imgproxy variables some setting reads.
        package static let mappedImgproxyVariables: Set<String> = Set(all.flatMap { $0.imgproxy?.variables ?? [] })
    }
#endif
