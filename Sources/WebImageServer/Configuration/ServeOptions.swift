#if Server
    import Foundation
    import Logging
    import WebImage

    /// Everything `webimage serve` starts with, read from ``ServeSettings`` and checked before the
    /// server starts.
    package struct ServeOptions: Sendable {
        /// How log lines are written to standard error.
        package enum LogFormat: String, Sendable {
            /// `2026-01-01T00:00:00+0000 info webimage.serve : key=value message`, swift-log's own lines.
            case text
            /// One JSON object per line.
            case json
        }

        package var configuration = ServiceConfiguration()
        package var host = "127.0.0.1"
        package var port = 8080
        package var drainDelay: Duration = .zero
        /// How often free allocator memory goes back to the kernel (``MemoryTrimmer``).
        package var freeMemoryInterval: Duration = .seconds(10)
        package var demo = false
        package var logFormat = LogFormat.text
        package var logLevel = Logger.Level.info
        /// Put before the names of the imgproxy-compatible metrics (imgproxy's `IMGPROXY_PROMETHEUS_NAMESPACE`).
        package var metricsNamespace: String?
        /// imgproxy's `IMGPROXY_OPEN_TELEMETRY_ENABLE` and `..._ENABLE_METRICS`, when given.
        package var imgproxyTraces: Bool?
        package var imgproxyMetrics: Bool?
        /// Lines to log once logging is set up: the imgproxy variables that are not honoured.
        package var notices: [String] = []
        /// Each setting given, with the flag or variable it came from (not its value: keys, salts
        /// and bucket names are no business of a log).
        package var origins: [(setting: String, source: String)] = []

        package init() {}

        /// The options `settings` give; the first bad value throws, naming its flag or variable.
        package init(_ settings: ServeSettings) throws(ServeSettingError) {
            notices = try ImgproxyVariables.notices(for: settings.environment)
            configuration.signer = try Self.signer(settings)
            configuration.allowsLoopbackSources = try settings.bool("allow-loopback-sources") ?? false
            configuration.allowsPrivateSources = try settings.bool("allow-private-sources") ?? false
            configuration.allowedSourcePrefixes = try settings.list("allowed-source")
            configuration.trustedSignatures = Set(try settings.list("trusted-signature"))
            if let secret = try settings.value("secret") {
                guard !secret.text.isEmpty else { throw ServeSettingError("\(secret.source) must not be empty") }
                configuration.secret = secret.text
            }
            if let prefix = try settings.value("path-prefix"), !prefix.text.isEmpty {
                guard prefix.text.hasPrefix("/"), !prefix.text.hasSuffix("/"), !prefix.text.contains("?") else {
                    throw ServeSettingError(
                        "\(prefix.source) must start with / and not end with one, got \(prefix.text)")
                }
                configuration.pathPrefix = prefix.text
            }
            configuration.allowedOptions = Set(try settings.list("allowed-option"))
            configuration.sourceRewriting.baseURL = try settings.string("base-url") ?? ""
            let replacements = try settings.list("url-replacement", separator: ";")
            do {
                configuration.sourceRewriting.replacements = try SourceURLRewriting.replacements(replacements)
            } catch {
                throw ServeSettingError("url-replacement: \(error.message)")
            }
            try readWatermark(settings)
            if let redirects = try settings.integer("max-redirects", in: 0...100, "a whole number within 0...100") {
                configuration.maxRedirects = redirects
            }
            let positive = (1...Int.max, "a whole number above 0")
            if let bytes = try settings.integer("max-source-bytes", in: positive.0, positive.1) {
                configuration.maxSourceBytes = bytes
            }
            if let pixels = try settings.integer("max-source-pixels", in: positive.0, positive.1) {
                configuration.maxSourcePixels = pixels
            }
            if let frames = try settings.integer("max-animation-frames", in: positive.0, positive.1) {
                configuration.maxAnimationFrames = frames
            }
            let noneOrMore = (0...Int.max, "a whole number, 0 or more")
            if let pixels = try settings.integer("max-animation-frame-pixels", in: noneOrMore.0, noneOrMore.1),
                pixels > 0
            {
                configuration.maxAnimationFramePixels = pixels
            }
            if let side = try settings.integer("max-result-dimension", in: noneOrMore.0, noneOrMore.1), side > 0 {
                configuration.maxResultDimension = side
            }
            configuration.allowsSecurityOptions = try settings.bool("allow-security-options") ?? false
            if let workers = try settings.integer("workers", in: positive.0, positive.1) {
                configuration.workers = workers
            }
            if let queue = try settings.integer("queue", in: 0...Int.max, "a whole number, 0 or more") {
                configuration.queueLimit = queue
            }
            if let pixels = try settings.integer("large-source-pixels", in: positive.0, positive.1) {
                configuration.largeSourcePixels = pixels
            }
            if let workers = try settings.integer("large-source-workers", in: positive.0, positive.1) {
                configuration.largeSourceWorkers = workers
            }
            if let timeout = try settings.seconds(
                "timeout", in: Double.leastNonzeroMagnitude...86_400, "a number of seconds above 0 and at most 86400")
            {
                configuration.queueTimeout = timeout
            }
            if let ttl = try settings.integer("ttl", in: Int.min...Int.max, "a whole number of seconds") {
                configuration.timeToLive = max(0, ttl)
            }
            if let quality = try settings.integer("quality", in: 1...100, "a whole number within 1...100") {
                configuration.defaultQuality = quality
                configuration.formatQualities = [:]
            }
            if let value = try settings.value("format-quality") {
                for (format, quality) in try Self.formatQualities(value) {
                    configuration.formatQualities[format] = quality
                }
            }
            try readFormatChoice(settings)
            try readSmallerFiles(settings)
            configuration.readsClientHints = try settings.bool("client-hints") ?? false
            configuration.passesSourceCacheControl = try settings.bool("cache-control-passthrough") ?? false
            try readFallbackImage(settings)
            configuration.presets = try Self.presets(settings)
            for name in try settings.list("skip-processing-format") {
                let format = ImageFormat(fileExtension: name)
                guard format != .undefined else {
                    throw ServeSettingError("--skip-processing-format names an unknown format: \(name)")
                }
                configuration.skipProcessingFormats.insert(format)
            }
            configuration.onlyPresets = try settings.bool("only-presets") ?? false
            configuration.keepsCopyright = try settings.bool("keep-copyright") ?? true
            configuration.enforcesThumbnail = try settings.bool("enforce-thumbnail") ?? false
            configuration.preservesHDR = try settings.bool("preserve-hdr") ?? false
            configuration.sanitizesSVG = try settings.bool("sanitize-svg") ?? true
            configuration.alwaysRasterizesSVG = try settings.bool("always-rasterize-svg") ?? false
            if configuration.onlyPresets, configuration.presets.isEmpty {
                throw ServeSettingError("--only-presets needs presets (--preset or --presets-file)")
            }
            configuration.infoPresets = try Self.presets(settings, prefix: "info-")
            configuration.infoOnlyPresets = try settings.bool("info-only-presets")
            configuration.allowedInfoOptions = Set(try settings.list("allowed-info-option"))
            if let directory = try settings.string("cache-dir") {
                configuration.cacheDirectory = URL(fileURLWithPath: directory)
            }
            configuration.s3 = try Self.s3(settings)
            host = try settings.string("host") ?? host
            port = try settings.integer("port", in: 0...65_535, "a port number within 0...65535") ?? port
            let drain = try settings.seconds("drain-delay", in: 0...3600, "a number of seconds within 0...3600") ?? 0
            drainDelay = Duration(clampingSeconds: drain)
            if let interval = try settings.seconds(
                "free-memory-interval", in: Double.leastNonzeroMagnitude...86_400,
                "a number of seconds above 0 and at most 86400")
            {
                freeMemoryInterval = Duration(clampingSeconds: interval)
            }
            demo = try settings.bool("demo") ?? false
            try readLogging(settings)
            if let namespace = try settings.value("metrics-namespace") {
                // "webimage" would give imgproxy's names the names of ours (webimage_requests_total).
                guard namespace.text.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_]*/) != nil, namespace.text != "webimage"
                else {
                    throw ServeSettingError(
                        "\(namespace.source) must be a metric name prefix ([A-Za-z_][A-Za-z0-9_]*) other than webimage")
                }
                metricsNamespace = namespace.text
            }
            imgproxyTraces = try settings.bool("otel-traces")
            imgproxyMetrics = try settings.bool("otel-metrics")
            configuration.propagatesTraceToSources = try settings.bool("otel-propagate-to-sources") ?? true
            for setting in ServeSetting.all {
                if let value = try settings.value(setting.key) { origins.append((setting.key, value.source)) }
            }
        }

        /// `--watermark-path`, `--watermark-data` (base64) or `--watermark-url`, one of them, and the
        /// base opacity.
        private mutating func readWatermark(_ settings: ServeSettings) throws(ServeSettingError) {
            configuration.watermark = try Self.configuredImage(settings, "watermark")
            if let opacity = try settings.seconds("watermark-opacity", in: 0...1, "a number within 0...1") {
                configuration.watermarkOpacity = opacity
            }
            if let font = try settings.value("watermark-font") {
                guard FileManager.default.isReadableFile(atPath: font.text) else {
                    throw ServeSettingError("\(font.source) names no readable font file: \(font.text)")
                }
                configuration.watermarkFont = font.text
            }
            if let size = try settings.integer("watermarks-cache-size", in: 0...1_000_000, "a whole number, 0 or more")
            {
                configuration.watermarksCacheSize = size
            }
            configuration.watermarkPreprocessesURL = try settings.bool("watermark-preprocess-url") ?? false
        }

        /// `--fallback-image-path`, `-data` or `-url`, one of them, its status and its TTL.
        private mutating func readFallbackImage(_ settings: ServeSettings) throws(ServeSettingError) {
            configuration.fallbackImage = try Self.configuredImage(settings, "fallback-image")
            if let status = try settings.integer(
                "fallback-image-status", in: 0...599, "0 (the error's status) or an HTTP status within 100...599"),
                status == 0 || status >= 100
            {
                configuration.fallbackImageStatus = status
            } else if let value = try settings.value("fallback-image-status") {
                throw ServeSettingError(
                    "\(value.source) must be 0 (the error's status) or an HTTP status within 100...599, got \(value.text)"
                )
            }
            if let ttl = try settings.integer(
                "fallback-image-ttl", in: 0...Int.max, "a whole number of seconds, 0 or more")
            {
                configuration.fallbackImageTimeToLive = ttl
            }
        }

        /// An image given by `--PREFIX-path`, `--PREFIX-data` (base64) or `--PREFIX-url`, at most one.
        private static func configuredImage(_ settings: ServeSettings, _ prefix: String) throws(ServeSettingError)
            -> ConfiguredImage?
        {
            let path = try settings.value(prefix + "-path")
            let data = try settings.value(prefix + "-data")
            let url = try settings.value(prefix + "-url")
            let given = [path, data, url].compactMap { $0 }
            guard given.count <= 1 else {
                throw ServeSettingError(
                    "\(given.map(\.source).joined(separator: " and ")) name two images; give one")
            }
            if let path {
                guard let bytes = FileManager.default.contents(atPath: path.text), !bytes.isEmpty else {
                    throw ServeSettingError("\(path.source) names a file that cannot be read: \(path.text)")
                }
                return .data(bytes)
            }
            if let data {
                guard let bytes = Data(base64Encoded: data.text.filter { !$0.isWhitespace }), !bytes.isEmpty else {
                    throw ServeSettingError("\(data.source) must be base64-encoded image bytes")
                }
                return .data(bytes)
            }
            if let url {
                guard let parsed = URL(string: url.text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "")
                else {
                    throw ServeSettingError("\(url.source) must be an http or https URL, got \(url.text)")
                }
                return .url(url.text)
            }
            return nil
        }

        /// `--no-auto-format`, `--auto-format`, `--enforce-webp`/`-avif`/`-jxl` and `--preferred-formats`.
        private mutating func readFormatChoice(_ settings: ServeSettings) throws(ServeSettingError) {
            configuration.automaticFormat = !(try settings.bool("no-auto-format") ?? false)
            if let value = try settings.value("auto-format") {
                let formats = try Self.formats(value)
                guard formats.allSatisfy(OutputFormats.negotiable.contains) else {
                    throw ServeSettingError("\(value.source) may list webp, avif and jxl, got \(value.text)")
                }
                configuration.automaticFormats = Set(formats)
            }
            var enforced: Set<ImageFormat> = []
            for (key, format) in [
                ("enforce-webp", ImageFormat.webp), ("enforce-avif", .avif), ("enforce-jxl", .jpegXL),
            ]
            where try settings.bool(key) == true {
                enforced.insert(format)
            }
            configuration.enforcedFormats = enforced
            if let value = try settings.value("preferred-formats") {
                let formats = try Self.formats(value)
                guard !formats.isEmpty else { throw ServeSettingError("\(value.source) must name a format") }
                configuration.preferredFormats = formats
            }
        }

        /// A comma-separated list of format names (`jpeg`, `jpg`, `webp`, `jxl`, ...), in order.
        private static func formats(_ value: SettingValue) throws(ServeSettingError) -> [ImageFormat] {
            var formats: [ImageFormat] = []
            for name in value.text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
            where !name.isEmpty {
                let format = ImageFormat(fileExtension: name)
                guard format != .undefined else {
                    throw ServeSettingError("\(value.source) names an unknown format: \(name)")
                }
                if !formats.contains(format) { formats.append(format) }
            }
            return formats
        }

        private mutating func readLogging(_ settings: ServeSettings) throws(ServeSettingError) {
            if let format = try settings.value("log-format") {
                guard let parsed = LogFormat(rawValue: format.text.lowercased()) else {
                    throw ServeSettingError("\(format.source) must be text or json, got \(format.text)")
                }
                logFormat = parsed
            }
            if let level = try settings.value("log-level") {
                guard let parsed = Logger.Level(rawValue: level.text.lowercased()) else {
                    throw ServeSettingError(
                        "\(level.source) must be trace, debug, info, notice, warning, error or critical, got \(level.text)"
                    )
                }
                logLevel = parsed
            }
        }

        /// The key/salt pairs, in order; none turns signing off.
        private static func signer(_ settings: ServeSettings) throws(ServeSettingError) -> URLSigner {
            let keys = try settings.value("key")
            let salts = try settings.value("salt")
            let keyList = keys?.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            let saltList = salts?.text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            let names = "\(keys?.source ?? "--key") and \(salts?.source ?? "--salt")"
            guard keyList.count == saltList.count else {
                throw ServeSettingError(
                    "\(names) must list as many values (\(keyList.count) keys, \(saltList.count) salts)")
            }
            var pairs: [URLSigner.KeyPair] = []
            for (key, salt) in zip(keyList, saltList) {
                guard let pair = URLSigner.KeyPair(hexKey: key, hexSalt: salt) else {
                    throw ServeSettingError("\(names) take non-empty hex strings")
                }
                pairs.append(pair)
            }
            return URLSigner(keyPairs: pairs)
        }

        /// The presets of `--preset` (or the comma-separated variables) and then `--presets-file`
        /// (one per line), checked by applying each; with the `info-` prefix, the `/info` presets.
        private static func presets(_ settings: ServeSettings, prefix: String = "") throws(ServeSettingError)
            -> ProcessingPresets
        {
            var definitions = try settings.list(prefix + "preset")
            if let file = try settings.value(prefix + "presets-file") {
                guard let text = try? String(contentsOfFile: file.text, encoding: .utf8) else {
                    throw ServeSettingError("\(file.source) names a file that cannot be read: \(file.text)")
                }
                definitions += text.split(whereSeparator: \.isNewline).map(String.init)
            }
            do {
                return try ProcessingPresets(definitions: definitions, forInfo: !prefix.isEmpty)
            } catch {
                throw ServeSettingError("\(prefix)presets: \(error.message)")
            }
        }

        /// `jpeg=70,webp=60,...`: a quality within 1...100 per output format.
        static func formatQualities(_ value: SettingValue) throws(ServeSettingError) -> [(ImageFormat, Int)] {
            var qualities: [(ImageFormat, Int)] = []
            for item in value.text.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, let quality = Int(parts[1]), (1...100).contains(quality) else {
                    throw ServeSettingError(
                        "\(value.source) must list format=quality pairs with qualities within 1...100, got \(value.text)"
                    )
                }
                let format = ImageFormat(fileExtension: parts[0])
                guard format != .undefined else {
                    throw ServeSettingError("\(value.source) names an unknown format: \(parts[0])")
                }
                qualities.append((format, quality))
            }
            return qualities
        }
    }
#endif
