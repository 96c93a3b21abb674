#if Server
    import ArgumentParser
    import Foundation
    import Hummingbird
    import Logging
    import Metrics
    import Prometheus
    import WebImage
    import WebImageServer

    /// `webimage serve`: the image service, speaking imgproxy's URL API.
    struct ServeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve resized and converted images at imgproxy-style URLs.",
            discussion: """
                GET /{signature}/{options}/plain/{percent-encoded source}[@{ext}] or \
                /{signature}/{options}/{base64url source}[.{ext}]; GET /health; GET /metrics. Every option \
                can also be set by an environment variable named after it: WEBIMAGE_PORT, WEBIMAGE_KEY, \
                WEBIMAGE_MAX_SOURCE_BYTES, ... (WEBIMAGE_ALLOWED_SOURCES is comma-separated; switches take \
                true or false). imgproxy's variables are read too (IMGPROXY_BIND, IMGPROXY_KEY, \
                IMGPROXY_MAX_SRC_RESOLUTION in megapixels, ...), so an imgproxy environment file works; one it \
                cannot honour is logged at start. A flag wins over WEBIMAGE_*, which wins over IMGPROXY_*; a bad \
                value stops the server with exit status 2. The S3 tier signs with AWS_ACCESS_KEY_ID, \
                AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; when S3 is slow or down, a lookup costs at most \
                its timeout and reads as a miss. OTEL_EXPORTER_OTLP_ENDPOINT exports traces and metrics by \
                OTLP/HTTP (OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf or http/json, OTEL_SERVICE_NAME). \
                SIGTERM or SIGINT stops accepting, finishes the requests in flight and exits 0.
                """)

        @Option(help: "The address to listen on (default 127.0.0.1).")
        var host: String?

        @Option(parsing: .unconditional, help: "The port to listen on (default 8080).")
        var port: String?

        @Option(help: "Where sources and results are cached on disk (default: no disk cache).")
        var cacheDir: String?

        @Option(
            help: ArgumentHelp(
                "Signing keys in hex, comma-separated; pairs with --salt in order.", valueName: "HEX,..."))
        var key: String?

        @Option(help: ArgumentHelp("Signing salts in hex, comma-separated; one per key.", valueName: "HEX,..."))
        var salt: String?

        @Option(
            help: ArgumentHelp(
                "A signature accepted without checking it (repeatable; imgproxy's IMGPROXY_TRUSTED_SIGNATURES).",
                valueName: "SIGNATURE"))
        var trustedSignature: [String] = []

        @Option(help: ArgumentHelp("Require 'Authorization: Bearer SECRET' on image requests.", valueName: "SECRET"))
        var secret: String?

        @Option(help: ArgumentHelp("Serve every path under this prefix, e.g. /images.", valueName: "PATH"))
        var pathPrefix: String?

        @Option(
            help: ArgumentHelp(
                "Accept only these option names in URLs, as spelled there (repeatable; presets are not checked).",
                valueName: "NAME"))
        var allowedOption: [String] = []

        @Option(help: ArgumentHelp("Put this in front of sources that do not start with it.", valueName: "URL"))
        var baseURL: String?

        @Option(
            help: ArgumentHelp(
                "Rewrite the start of sources matching PATTERN (* matches anything but /, ${1}… in the replacement; repeatable).",
                valueName: "PATTERN=REPLACEMENT"))
        var urlReplacement: [String] = []

        @Option(help: ArgumentHelp("The watermark image wm: places, from this file.", valueName: "PATH"))
        var watermarkPath: String?

        @Option(help: ArgumentHelp("The watermark image, as base64-encoded bytes.", valueName: "BASE64"))
        var watermarkData: String?

        @Option(
            help: ArgumentHelp(
                "The watermark image, fetched from this URL as sources are (once, then kept).", valueName: "URL"))
        var watermarkURL: String?

        @Option(
            parsing: .unconditional, help: "The watermark's base opacity, 0...1, which wm:'s multiplies (default 1).")
        var watermarkOpacity: String?

        @Option(
            help: ArgumentHelp(
                "The font wmt: draws text in (default Debian's DejaVu Sans, /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf).",
                valueName: "PATH"))
        var watermarkFont: String?

        @Option(
            parsing: .unconditional,
            help: "How many wmu: and wmt: marks are kept decoded in memory (default 256; 0 keeps none).")
        var watermarksCacheSize: String?

        @Flag(help: "Rewrite wmu: URLs with --base-url and --url-replacement, as sources are.")
        var watermarkPreprocessURL = false

        @Option(parsing: .unconditional, help: "Redirects a source fetch follows at most, 0...100 (default 10).")
        var maxRedirects: String?

        @Flag(help: "Allow sources on loopback addresses (refused by default).")
        var allowLoopbackSources = false

        @Flag(help: "Allow sources on private, CGNAT, unique-local and IPv4-mapped addresses (refused by default).")
        var allowPrivateSources = false

        @Option(
            help: ArgumentHelp(
                "Fetch only sources starting with this prefix; * matches anything but / (repeatable).",
                valueName: "PREFIX"))
        var allowedSource: [String] = []

        @Option(parsing: .unconditional, help: "Refuse sources larger than this many bytes (default 64 MiB).")
        var maxSourceBytes: String?

        @Option(parsing: .unconditional, help: "Refuse sources with more pixels than this (default 50 million).")
        var maxSourcePixels: String?

        @Option(
            parsing: .unconditional,
            help: "Keep at most this many frames of an animation, the first ones; 1 makes a still (default 1000).")
        var maxAnimationFrames: String?

        @Option(
            parsing: .unconditional,
            help: "Refuse animations whose frames have more pixels than this; 0 is no limit of its own (default 0).")
        var maxAnimationFramePixels: String?

        @Option(
            parsing: .unconditional,
            help: "Scale results down until no side is longer than this many pixels; 0 is no limit (default 0).")
        var maxResultDimension: String?

        @Flag(
            help:
                "Accept imgproxy's security options in URLs (max_src_resolution, max_src_file_size, max_animation_frames, max_animation_frame_resolution, max_result_dimension)."
        )
        var allowSecurityOptions = false

        @Option(parsing: .unconditional, help: "Results made at once (default: the core count).")
        var workers: String?

        @Option(parsing: .unconditional, help: "Results that may wait for a worker; more get 429 (default 256).")
        var queue: String?

        @Option(
            parsing: .unconditional,
            help: "Sources of this many pixels or more wait in a lane of their own (default 4 million).")
        var largeSourcePixels: String?

        @Option(
            parsing: .unconditional,
            help:
                "Workers the large-source lane may hold at once, at most --workers (default: half the cores, 1 or more)."
        )
        var largeSourceWorkers: String?

        @Option(
            parsing: .unconditional,
            help: "Seconds a result may wait for a worker before 503, above 0 and at most 86400 (default 10).")
        var timeout: String?

        @Option(
            parsing: .unconditional,
            help: "Cache-Control max-age of results, in seconds; a negative value is 0 (default one year).")
        var ttl: String?

        @Option(
            parsing: .unconditional,
            help: "Quality 1...100 for lossy output when the URL gives none (default 80; WebP 79, AVIF 63).")
        var quality: String?

        @Option(
            help: ArgumentHelp(
                "Quality per output format when the URL gives none, e.g. jpeg=85,webp=75 (wins over --quality).",
                valueName: "FORMAT=Q,..."))
        var formatQuality: String?

        @Flag(help: "Do not pick a format from the Accept header when the URL names none.")
        var noAutoFormat = false

        @Option(
            help: ArgumentHelp(
                "The formats Accept may choose when the URL names none, of jxl, avif and webp (default avif,webp).",
                valueName: "LIST"))
        var autoFormat: String?

        @Flag(help: "Answer in WebP when Accept lists it, even when the URL names another format.")
        var enforceWebp = false

        @Flag(help: "Answer in AVIF when Accept lists it, even when the URL names another format.")
        var enforceAvif = false

        @Flag(help: "Answer in JPEG XL when Accept lists it, even when the URL names another format.")
        var enforceJxl = false

        @Option(
            help: ArgumentHelp(
                "Formats a source keeps, and else the first that fits is written (default jpeg,png,gif,webp,avif).",
                valueName: "LIST"))
        var preferredFormats: String?

        @Flag(help: "Take dpr and width from the Client Hints Sec-CH-DPR/DPR and Sec-CH-Width/Width.")
        var clientHints = false

        @Flag(help: "Send the source's Cache-Control (or Expires) instead of --ttl when it sent one.")
        var cacheControlPassthrough = false

        @Option(
            help: ArgumentHelp(
                "Answer with this image, processed as asked, when a source cannot be fetched.", valueName: "PATH"))
        var fallbackImagePath: String?

        @Option(help: ArgumentHelp("The fallback image, as base64-encoded bytes.", valueName: "BASE64"))
        var fallbackImageData: String?

        @Option(
            help: ArgumentHelp("The fallback image, fetched from this URL as sources are.", valueName: "URL"))
        var fallbackImageURL: String?

        @Option(
            parsing: .unconditional,
            help: "The status of a fallback image's response; 0 is the fetch error's status (default 200).")
        var fallbackImageStatus: String?

        @Option(
            parsing: .unconditional,
            help: "The longest max-age of a fallback image's response, in seconds; 0 is --ttl (default 0).")
        var fallbackImageTTL: String?

        @Option(
            help: ArgumentHelp(
                "A preset URLs may name with pr:NAME, e.g. thumb=rs:fill:150:150/q:70; 'default' applies to every URL (repeatable).",
                valueName: "NAME=OPTIONS"))
        var preset: [String] = []

        @Option(
            help: ArgumentHelp(
                "Answer sources in this format with their own bytes when the URL names no other format (repeatable).",
                valueName: "EXT"))
        var skipProcessingFormat: [String] = []

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Keep the copyright and author when metadata is stripped, unless the URL says (default true).",
                valueName: "BOOL"))
        var keepCopyright: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Decode a HEIC or AVIF source's embedded thumbnail, unless the URL says (default false).",
                valueName: "BOOL"))
        var enforceThumbnail: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Keep a deep source's bits (16-bit PNG and TIFF, float TIFF, 10- and 12-bit AVIF and HEIC, JPEG XL) in PNG, TIFF and JPEG XL results (16 bits) and AVIF ones (10), unless the URL says (default false).",
                valueName: "BOOL"))
        var preserveHdr: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Remove scripts, event handlers and links into code from SVG sources answered as SVG (default true).",
                valueName: "BOOL"))
        var sanitizeSvg: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Rasterise SVG sources even when the URL asks for nothing and names no format (default false).",
                valueName: "BOOL"))
        var alwaysRasterizeSvg: String?

        @Option(help: ArgumentHelp("A file of presets, one NAME=OPTIONS per line.", valueName: "PATH"))
        var presetsFile: String?

        @Flag(help: "Accept presets alone: a URL's options are preset names separated by ':'.")
        var onlyPresets = false

        @Option(
            help: ArgumentHelp(
                "A preset /info URLs may name with pr:NAME, e.g. hashes=bh:4:3/th:1; 'default' applies to every /info URL (repeatable).",
                valueName: "NAME=OPTIONS"))
        var infoPreset: [String] = []

        @Option(help: ArgumentHelp("A file of /info presets, one NAME=OPTIONS per line.", valueName: "PATH"))
        var infoPresetsFile: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Accept /info presets alone (default: as --only-presets).", valueName: "BOOL"))
        var infoOnlyPresets: String?

        @Option(
            help: ArgumentHelp(
                "Accept only these /info option names in URLs, as spelled there (repeatable; presets are not checked).",
                valueName: "NAME"))
        var allowedInfoOption: [String] = []

        @Option(
            parsing: .unconditional,
            help: "Seconds to go on serving after SIGTERM, /health answering 503, before draining (default 0).")
        var drainDelay: String?

        @Option(
            parsing: .unconditional,
            help: "Seconds between handing free allocator memory back to the kernel (malloc_trim; default 10).")
        var freeMemoryInterval: String?

        @Flag(
            help: """
                Start a loopback origin of example images and serve a gallery of signed URLs at / \
                (allows loopback sources; signs with a key made for the run when none is given).
                """)
        var demo = false

        @Option(help: ArgumentHelp("Log lines as text or json (default text).", valueName: "FORMAT"))
        var logFormat: String?

        @Option(
            help: ArgumentHelp(
                "trace, debug, info, notice, warning, error or critical (default info).", valueName: "LEVEL")
        )
        var logLevel: String?

        @Option(
            help: ArgumentHelp(
                "Put NAME_ before the names of the imgproxy-compatible metrics (default none).", valueName: "NAME"))
        var metricsNamespace: String?

        @OptionGroup var s3: ServeS3Options

        @OptionGroup var smallerFiles: ServeSmallerFilesOptions

        /// The flags given, by name, as ``ServeSettings`` reads them.
        private var flagValues: [String: String] {
            let options: [String: String?] = [
                "host": host, "port": port, "cache-dir": cacheDir, "key": key, "salt": salt,
                "max-source-bytes": maxSourceBytes, "max-source-pixels": maxSourcePixels,
                "max-animation-frames": maxAnimationFrames, "workers": workers, "queue": queue, "timeout": timeout,
                "large-source-pixels": largeSourcePixels, "large-source-workers": largeSourceWorkers,
                "ttl": ttl, "quality": quality, "format-quality": formatQuality, "drain-delay": drainDelay,
                "free-memory-interval": freeMemoryInterval,
                "log-format": logFormat, "log-level": logLevel, "metrics-namespace": metricsNamespace,
                "presets-file": presetsFile, "max-animation-frame-pixels": maxAnimationFramePixels,
                "max-result-dimension": maxResultDimension, "secret": secret, "path-prefix": pathPrefix,
                "base-url": baseURL, "max-redirects": maxRedirects, "watermark-path": watermarkPath,
                "watermark-data": watermarkData, "watermark-url": watermarkURL, "watermark-opacity": watermarkOpacity,
                "watermark-font": watermarkFont, "watermarks-cache-size": watermarksCacheSize,
                "auto-format": autoFormat, "preferred-formats": preferredFormats,
                "fallback-image-path": fallbackImagePath, "fallback-image-data": fallbackImageData,
                "fallback-image-url": fallbackImageURL, "fallback-image-status": fallbackImageStatus,
                "fallback-image-ttl": fallbackImageTTL,
                "keep-copyright": keepCopyright, "enforce-thumbnail": enforceThumbnail, "preserve-hdr": preserveHdr,
                "sanitize-svg": sanitizeSvg,
                "always-rasterize-svg": alwaysRasterizeSvg,
                "info-presets-file": infoPresetsFile, "info-only-presets": infoOnlyPresets,
            ]
            let switches = [
                "allow-loopback-sources": allowLoopbackSources, "allow-private-sources": allowPrivateSources,
                "no-auto-format": noAutoFormat, "demo": demo, "only-presets": onlyPresets,
                "allow-security-options": allowSecurityOptions, "enforce-webp": enforceWebp,
                "enforce-avif": enforceAvif, "enforce-jxl": enforceJxl, "client-hints": clientHints,
                "cache-control-passthrough": cacheControlPassthrough,
                "watermark-preprocess-url": watermarkPreprocessURL,
            ]
            return options.compactMapValues { $0 }.merging(switches.filter(\.value).mapValues { _ in "true" }) { $1 }
                .merging(s3.flagValues) { $1 }.merging(smallerFiles.flagValues) { $1 }
        }

        func run() async throws {
            let environment = ProcessInfo.processInfo.environment
            let options: ServeOptions
            let telemetrySettings: TelemetrySettings
            do {
                options = try ServeOptions(
                    ServeSettings(
                        flags: flagValues,
                        repeatedFlags: [
                            "allowed-source": allowedSource, "preset": preset,
                            "skip-processing-format": skipProcessingFormat, "trusted-signature": trustedSignature,
                            "allowed-option": allowedOption, "url-replacement": urlReplacement,
                            "info-preset": infoPreset, "allowed-info-option": allowedInfoOption,
                        ],
                        environment: environment))
                telemetrySettings = try TelemetrySettings(environment: environment, options: options)
            } catch {
                throw CommandFailure(error.message, exitCode: 2)
            }
            ServeLogging.bootstrap(
                format: options.logFormat, level: options.logLevel, tracing: telemetrySettings.exportsTraces)
            let logger = Logger(label: "webimage.serve")
            for (setting, source) in options.origins {
                logger.debug("setting", metadata: ["setting": "\(setting)", "from": "\(source)"])
            }
            for notice in options.notices { logger.warning("\(notice)") }
            let telemetry = try ServeTelemetry(telemetrySettings, logger: logger)
            var configuration = options.configuration
            configuration.tracer = telemetry.tracer
            if options.demo {
                configuration.allowsLoopbackSources = true
                if !configuration.signer.isEnabled { configuration.signer = ServeDemo.runKey() }
            }
            if let s3 = configuration.s3 {
                let kept = s3.storesSources ? "results and sources" : "results"
                logger.info("S3 tier: \(s3.endpoint.absoluteString) bucket \(s3.bucket) prefix '\(s3.prefix)', \(kept)")
            }
            if !configuration.signer.isEnabled {
                logger.warning("no --key/--salt given: URL signatures are not checked (any signature segment passes)")
            }
            let metrics = ServiceMetrics(imgproxyNamespace: options.metricsNamespace, mirror: telemetry.metricsFactory)
            // The library's own swift-metrics counters (downloads, cache hits) join /metrics, and the OTLP export.
            let prometheus = PrometheusMetricsFactory(registry: metrics.registry)
            if let exported = telemetry.metricsFactory {
                MetricsSystem.bootstrap(MultiplexMetricsHandler(factories: [prometheus, exported]))
            } else {
                MetricsSystem.bootstrap(prometheus)
            }
            let service = try ImageService(configuration: configuration, logger: logger, metrics: metrics)
            let gallery = options.demo ? try await ServeDemo.start(signer: configuration.signer) : nil
            let app = ImageServer.application(
                service: service, host: options.host, port: options.port, logger: logger, homePage: gallery?.page
            ) { host, port in
                // One line scripts and tests wait for (port 0 picks a free port).
                let shown = host.contains(":") ? "[\(host)]" : host
                FileHandle.standardOutput.write(Data("webimage serve: listening on http://\(shown):\(port)\n".utf8))
                if gallery != nil {
                    FileHandle.standardOutput.write(Data("webimage serve: gallery at http://\(shown):\(port)/\n".utf8))
                }
            }
            do {
                try await ImageServer.runUntilSignalled(
                    app, service: service, drainDelay: options.drainDelay,
                    background: telemetry.services + [MemoryTrimmer(interval: options.freeMemoryInterval)],
                    logger: logger)
            } catch {
                await gallery?.stop()
                throw error
            }
            await gallery?.stop()
            // Drained: let the cache writes finish and close the source client.
            await service.shutdown()
        }
    }
#endif
