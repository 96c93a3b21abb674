import Foundation
import Testing
import WebImage

@testable import WebImageServer

/// `webimage serve`'s configuration table: every imgproxy variable it maps reaches its setting,
/// a flag wins over `WEBIMAGE_*` which wins over `IMGPROXY_*`, and a bad value from any of them
/// is an error naming it.
@Suite("Serve settings: flags, WEBIMAGE_* and IMGPROXY_* variables")
struct ServeSettingsTests {
    static func options(
        _ environment: [String: String], flags: [String: String] = [:]
    ) throws(ServeSettingError) -> ServeOptions {
        try ServeOptions(ServeSettings(flags: flags, environment: environment))
    }

    static func error(_ environment: [String: String], flags: [String: String] = [:]) -> String? {
        do {
            _ = try options(environment, flags: flags)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func everyMappedImgproxyVariableReachesItsSetting() throws {
        let options = try Self.options([
            "IMGPROXY_BIND": "0.0.0.0:9090", "IMGPROXY_KEY": "abcd,0102", "IMGPROXY_SALT": "ef01,0304",
            "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true", "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES": "1",
            "IMGPROXY_ALLOWED_SOURCES": "https://*.example.com/, http://cdn.test/",
            "IMGPROXY_MAX_SRC_FILE_SIZE": "1048576", "IMGPROXY_MAX_SRC_RESOLUTION": "2.5",
            "IMGPROXY_MAX_ANIMATION_FRAMES": "7", "IMGPROXY_WORKERS": "3", "IMGPROXY_REQUESTS_QUEUE_SIZE": "12",
            "IMGPROXY_TIMEOUT": "4", "IMGPROXY_TTL": "3600", "IMGPROXY_QUALITY": "70",
            "IMGPROXY_FORMAT_QUALITY": "webp=60,avif=40", "IMGPROXY_AUTO_WEBP": "false",
            "IMGPROXY_CACHE_USE": "fs", "IMGPROXY_CACHE_FS_ROOT": "/var/cache/images",
            "IMGPROXY_LOG_FORMAT": "json", "IMGPROXY_LOG_LEVEL": "warn", "IMGPROXY_PROMETHEUS_NAMESPACE": "imgproxy",
            "IMGPROXY_OPEN_TELEMETRY_ENABLE": "true", "IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS": "true",
            "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL": "false", "IMGPROXY_FREE_MEMORY_INTERVAL": "30",
        ])
        let configuration = options.configuration
        #expect(options.host == "0.0.0.0" && options.port == 9090)
        #expect(configuration.signer.keyPairs.map(\.key) == [[0xab, 0xcd], [0x01, 0x02]])
        #expect(configuration.signer.keyPairs.map(\.salt) == [[0xef, 0x01], [0x03, 0x04]])
        #expect(configuration.allowsLoopbackSources && configuration.allowsPrivateSources)
        #expect(configuration.allowedSourcePrefixes == ["https://*.example.com/", "http://cdn.test/"])
        #expect(configuration.maxSourceBytes == 1_048_576)
        #expect(configuration.maxSourcePixels == 2_500_000)
        #expect(configuration.maxAnimationFrames == 7)
        #expect(configuration.workers == 3 && configuration.queueLimit == 12 && configuration.queueTimeout == 4)
        #expect(configuration.timeToLive == 3600)
        #expect(configuration.defaultQuality == 70 && configuration.formatQualities == [.webp: 60, .avif: 40])
        // IMGPROXY_AUTO_WEBP=false takes WebP out of the formats Accept chooses; AVIF stays ours.
        #expect(configuration.automaticFormats == [.avif])
        #expect(configuration.cacheDirectory?.path == "/var/cache/images")
        #expect(options.logFormat == .json && options.logLevel == .warning)
        #expect(options.metricsNamespace == "imgproxy")
        #expect(options.imgproxyTraces == true && options.imgproxyMetrics == true)
        #expect(!configuration.propagatesTraceToSources)
        #expect(options.freeMemoryInterval == .seconds(30))
        #expect(options.notices.isEmpty, "\(options.notices)")
    }

    @Test func imgproxyUnitsAndZeroesBecomeOurs() throws {
        let unlimited = try Self.options(["IMGPROXY_MAX_SRC_FILE_SIZE": "0", "IMGPROXY_REQUESTS_QUEUE_SIZE": "0"])
        #expect(unlimited.configuration.maxSourceBytes == Int.max && unlimited.configuration.queueLimit == Int.max)
        #expect(try Self.options(["IMGPROXY_MAX_SRC_RESOLUTION": "0.25"]).configuration.maxSourcePixels == 250_000)
        let everywhere = try Self.options(["IMGPROXY_BIND": ":8081"])
        #expect(everywhere.host == "0.0.0.0" && everywhere.port == 8081)
        let ipv6 = try Self.options(["IMGPROXY_BIND": "[::1]:8082"])
        #expect(ipv6.host == "::1" && ipv6.port == 8082)
        #expect(try Self.options(["IMGPROXY_LOG_FORMAT": "structured"]).logFormat == .text)
        // Each switch (or its old name) adds or takes out its own format; the new name wins.
        #expect(
            try Self.options(["IMGPROXY_AUTO_WEBP": "false", "IMGPROXY_ENABLE_AVIF_DETECTION": "true"]).configuration
                .automaticFormats == [.avif])
        #expect(
            try Self.options(["IMGPROXY_ENABLE_WEBP_DETECTION": "false", "IMGPROXY_AUTO_WEBP": "true"]).configuration
                .automaticFormats == [.avif, .webp])
        #expect(
            try Self.options(["IMGPROXY_AUTO_JXL": "true", "IMGPROXY_AUTO_AVIF": "false"]).configuration
                .automaticFormats == [.webp, .jpegXL])
    }

    @Test func imgproxyProResultCacheInS3BecomesTheS3Tier() throws {
        let credentials = ["AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"]
        let options = try Self.options(
            credentials.merging([
                "IMGPROXY_CACHE_USE": "s3", "IMGPROXY_CACHE_BUCKET": "results", "IMGPROXY_CACHE_S3_REGION": "eu-west-1",
                "IMGPROXY_CACHE_PATH_PREFIX": "webimage/",
            ]) { $1 })
        let s3 = try #require(options.configuration.s3)
        #expect(s3.endpoint.absoluteString == "https://s3.eu-west-1.amazonaws.com")
        #expect(s3.bucket == "results" && s3.region == "eu-west-1" && s3.prefix == "webimage/")
        let custom = try Self.options(
            credentials.merging([
                "IMGPROXY_CACHE_USE": "s3", "IMGPROXY_CACHE_BUCKET": "b", "IMGPROXY_CACHE_S3_REGION": "us-east-1",
                "IMGPROXY_CACHE_S3_ENDPOINT": "http://127.0.0.1:9000",
            ]) { $1 })
        #expect(custom.configuration.s3?.endpoint.absoluteString == "http://127.0.0.1:9000")
        // Without IMGPROXY_CACHE_USE=s3 the cache variables mean nothing.
        #expect(try Self.options(credentials.merging(["IMGPROXY_CACHE_BUCKET": "b"]) { $1 }).configuration.s3 == nil)
    }

    @Test func aFlagWinsOverWebimageVariablesWhichWinOverImgproxyOnes() throws {
        let environment = [
            "WEBIMAGE_PORT": "7001", "IMGPROXY_BIND": "127.0.0.1:7002", "WEBIMAGE_QUALITY": "60",
            "IMGPROXY_QUALITY": "50",
            "IMGPROXY_MAX_SRC_RESOLUTION": "1", "IMGPROXY_TTL": "10",
        ]
        let fromVariables = try Self.options(environment)
        #expect(fromVariables.port == 7001 && fromVariables.configuration.defaultQuality == 60)
        #expect(
            fromVariables.configuration.maxSourcePixels == 1_000_000 && fromVariables.configuration.timeToLive == 10)
        let fromFlags = try Self.options(
            environment, flags: ["port": "7000", "quality": "90", "max-source-pixels": "5", "ttl": "20"])
        #expect(fromFlags.port == 7000 && fromFlags.configuration.defaultQuality == 90)
        #expect(fromFlags.configuration.maxSourcePixels == 5 && fromFlags.configuration.timeToLive == 20)
        let defaults = try Self.options([:])
        #expect(defaults.host == "127.0.0.1" && defaults.port == 8080 && !defaults.configuration.allowsPrivateSources)
        #expect(defaults.configuration.formatQualities == [.webp: 79, .avif: 63])
    }

    /// The large-source lane (fairness under huge sources) from a flag or its variable; no
    /// imgproxy variable means the same.
    @Test func theLargeSourceLaneIsConfigurable() throws {
        let defaults = try Self.options([:]).configuration
        #expect(defaults.largeSourcePixels == 4_000_000)
        #expect(defaults.largeSourceWorkers == max(1, ProcessInfo.processInfo.activeProcessorCount / 2))
        let environment = ["WEBIMAGE_LARGE_SOURCE_PIXELS": "1000000", "WEBIMAGE_LARGE_SOURCE_WORKERS": "3"]
        let fromVariables = try Self.options(environment).configuration
        #expect(fromVariables.largeSourcePixels == 1_000_000 && fromVariables.largeSourceWorkers == 3)
        let fromFlags = try Self.options(environment, flags: ["large-source-pixels": "250000"]).configuration
        #expect(fromFlags.largeSourcePixels == 250_000 && fromFlags.largeSourceWorkers == 3)
    }

    @Test(
        arguments: [
            (["port": "70000"], [:], "--port"), (["port": "-1"], [:], "--port"), (["port": "http"], [:], "--port"),
            ([:], ["WEBIMAGE_PORT": "eighty"], "WEBIMAGE_PORT"), ([:], ["IMGPROXY_BIND": "localhost"], "IMGPROXY_BIND"),
            ([:], ["IMGPROXY_BIND": "127.0.0.1:99999"], "IMGPROXY_BIND"),
            ([:], ["IMGPROXY_NETWORK": "unix", "IMGPROXY_BIND": "/tmp/s"], "IMGPROXY_NETWORK"),
            (["timeout": "nan"], [:], "--timeout"), (["timeout": "1e308"], [:], "--timeout"),
            ([:], ["WEBIMAGE_TIMEOUT": "0"], "WEBIMAGE_TIMEOUT"), ([:], ["IMGPROXY_TIMEOUT": "-5"], "IMGPROXY_TIMEOUT"),
            (["drain-delay": "inf"], [:], "--drain-delay"), (["quality": "0"], [:], "--quality"),
            (["free-memory-interval": "0"], [:], "--free-memory-interval"),
            ([:], ["IMGPROXY_FREE_MEMORY_INTERVAL": "-10"], "IMGPROXY_FREE_MEMORY_INTERVAL"),
            ([:], ["WEBIMAGE_FREE_MEMORY_INTERVAL": "1e308"], "WEBIMAGE_FREE_MEMORY_INTERVAL"),
            ([:], ["IMGPROXY_QUALITY": "101"], "IMGPROXY_QUALITY"),
            ([:], ["IMGPROXY_FORMAT_QUALITY": "webp=0"], "IMGPROXY_FORMAT_QUALITY"),
            ([:], ["WEBIMAGE_FORMAT_QUALITY": "nope=50"], "WEBIMAGE_FORMAT_QUALITY"),
            (["workers": "-9223372036854775808"], [:], "--workers"),
            ([:], ["IMGPROXY_WORKERS": "0"], "IMGPROXY_WORKERS"),
            (["queue": "-1"], [:], "--queue"),
            (["large-source-pixels": "0"], [:], "--large-source-pixels"),
            ([:], ["WEBIMAGE_LARGE_SOURCE_WORKERS": "1e308"], "WEBIMAGE_LARGE_SOURCE_WORKERS"),
            ([:], ["IMGPROXY_REQUESTS_QUEUE_SIZE": "-1"], "IMGPROXY_REQUESTS_QUEUE_SIZE"),
            (["max-source-bytes": "0"], [:], "--max-source-bytes"),
            ([:], ["IMGPROXY_MAX_SRC_FILE_SIZE": "big"], "IMGPROXY_MAX_SRC_FILE_SIZE"),
            ([:], ["IMGPROXY_MAX_SRC_RESOLUTION": "0"], "IMGPROXY_MAX_SRC_RESOLUTION"),
            ([:], ["IMGPROXY_MAX_SRC_RESOLUTION": "inf"], "IMGPROXY_MAX_SRC_RESOLUTION"),
            ([:], ["IMGPROXY_MAX_ANIMATION_FRAMES": "1.5"], "IMGPROXY_MAX_ANIMATION_FRAMES"),
            ([:], ["IMGPROXY_TTL": "year"], "IMGPROXY_TTL"),
            ([:], ["WEBIMAGE_ALLOW_LOOPBACK_SOURCES": "maybe"], "WEBIMAGE_ALLOW_LOOPBACK_SOURCES"),
            ([:], ["IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES": "perhaps"], "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES"),
            ([:], ["IMGPROXY_AUTO_AVIF": "sure"], "IMGPROXY_AUTO_AVIF"),
            ([:], ["IMGPROXY_KEY": "abcd"], "IMGPROXY_KEY and --salt"),
            ([:], ["IMGPROXY_KEY": "zz", "IMGPROXY_SALT": "00"], "IMGPROXY_KEY and IMGPROXY_SALT"),
            ([:], ["IMGPROXY_LOG_LEVEL": "loud"], "IMGPROXY_LOG_LEVEL"), (["log-format": "xml"], [:], "--log-format"),
            ([:], ["IMGPROXY_PROMETHEUS_NAMESPACE": "my-app"], "IMGPROXY_PROMETHEUS_NAMESPACE"),
            (["metrics-namespace": "webimage"], [:], "--metrics-namespace"),
            (
                ["s3-timeout": "0"],
                [
                    "WEBIMAGE_S3_ENDPOINT": "http://127.0.0.1:9", "WEBIMAGE_S3_BUCKET": "b", "WEBIMAGE_S3_REGION": "r",
                    "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b",
                ], "--s3-timeout"
            ),
            ([:], ["IMGPROXY_CACHE_USE": "s3", "IMGPROXY_CACHE_BUCKET": "b"], "IMGPROXY_CACHE_BUCKET"),
            ([:], ["IMGPROXY_INFO_PRESETS": "hashes=bh:10:1"], "info-presets: preset 'hashes'"),
            ([:], ["IMGPROXY_PATH_PREFIX": "img"], "IMGPROXY_PATH_PREFIX"),
            ([:], ["IMGPROXY_MAX_REDIRECTS": "-1"], "IMGPROXY_MAX_REDIRECTS"),
            ([:], ["IMGPROXY_ONLY_PRESETS": "true"], "--only-presets"),
            ([:], ["IMGPROXY_PRESETS": "thumb=rs:fit:1:1,bad=w:-1"], "presets: preset 'bad'"),
            (["presets-file": "/nonexistent/presets"], [:], "--presets-file"),
        ] as [([String: String], [String: String], String)])
    func aBadValueIsAnErrorNamingItsFlagOrVariable(flags: [String: String], environment: [String: String], name: String)
    {
        let message = Self.error(environment, flags: flags)
        #expect(message?.hasPrefix(name) == true, "\(flags) \(environment): \(message ?? "no error")")
    }

    @Test func unsupportedImgproxyVariablesAreNoticedOnceEachAndNeverSilently() throws {
        let options = try Self.options([
            "IMGPROXY_PRESETS_SEPARATOR": ";", "IMGPROXY_FALLBACK_IMAGES_CACHE_SIZE": "16",
            "IMGPROXY_USE_ETAG": "true", "IMGPROXY_USE_LAST_MODIFIED": "false", "IMGPROXY_SO_REUSEPORT": "true",
            "IMGPROXY_FROBNICATE": "1", "IMGPROXY_ENFORCE_WEBP": "false", "IMGPROXY_SET_CANONICAL_HEADER": "true",
            "IMGPROXY_SIGNATURE_SIZE": "32", "IMGPROXY_CACHE_USE": "gcs", "IMGPROXY_EMPTY": "",
        ])
        #expect(
            options.notices == [
                "IMGPROXY_CACHE_USE=gcs is ignored (only the fs and s3 caches are supported)",
                "IMGPROXY_FALLBACK_IMAGES_CACHE_SIZE is ignored (not supported yet)",
                "IMGPROXY_FROBNICATE is ignored (not an imgproxy setting webimage knows)",
                "IMGPROXY_PRESETS_SEPARATOR is ignored (not supported yet)",
                "IMGPROXY_SET_CANONICAL_HEADER is ignored (not supported yet)",
                "IMGPROXY_SO_REUSEPORT is ignored (one process serves every connection)",
                "IMGPROXY_USE_LAST_MODIFIED=false is ignored (Last-Modified is always sent)",
            ])
    }

    @Test func everySettingHasAFlagAndAWebimageVariableOrIsImgproxysOnly() {
        for setting in ServeSetting.all {
            if let flag = setting.flag {
                let derived = "WEBIMAGE_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
                #expect(setting.variable == derived || setting.variable == derived + "S", "\(flag)")
            } else {
                #expect(setting.imgproxy != nil)
            }
        }
        // Nothing is both read by a setting and listed as unsupported.
        for name in ServeSetting.mappedImgproxyVariables where name != "IMGPROXY_CACHE_USE" {
            #expect(ImgproxyVariables.reason(for: name) == nil || name.hasPrefix("IMGPROXY_CACHE_"), "\(name)")
        }
    }

    @Test func telemetryFollowsOpenTelemetrysVariablesAndImgproxysSwitches() throws {
        let none = try TelemetrySettings(environment: [:], options: ServeOptions())
        #expect(!none.exportsTraces && !none.exportsMetrics)
        let endpoint = try TelemetrySettings(
            environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SERVICE_NAME": "images"],
            options: ServeOptions())
        #expect(endpoint.exportsTraces && endpoint.exportsMetrics && endpoint.serviceName == "images")
        let tracesOnly = try TelemetrySettings(
            environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"],
            options: ServeOptions())
        #expect(tracesOnly.exportsTraces && !tracesOnly.exportsMetrics && tracesOnly.serviceName == "webimage")
        let switches = try TelemetrySettings(
            environment: [:], options: Self.options(["IMGPROXY_OPEN_TELEMETRY_ENABLE": "true"]))
        #expect(switches.exportsTraces && !switches.exportsMetrics)
        let off = try TelemetrySettings(
            environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://x", "OTEL_METRICS_EXPORTER": "none"],
            options: ServeOptions())
        #expect(off.exportsTraces && !off.exportsMetrics)
        #expect(throws: ServeSettingError.self) {
            try TelemetrySettings(
                environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://x", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"],
                options: ServeOptions())
        }
    }

    @Test(arguments: [
        ("https://*.example.com/", "https://cdn.example.com/a.png", true),
        ("https://*.example.com/", "https://example.org/.example.com/a.png", false),
        ("https://*.example.com/", "https://a.b.example.com/x", true),
        ("http://127.0.0.1:*/fixtures/", "http://127.0.0.1:8080/fixtures/a.png", true),
        ("http://127.0.0.1:*/fixtures/", "http://127.0.0.1:8080/other/fixtures/a.png", false),
        ("http://cdn.test/", "http://cdn.test/a.png", true), ("http://cdn.test/", "http://cdn.test.evil/a.png", false),
        ("s3://*", "s3://bucket/key", true),
    ])
    func aStarInAnAllowedSourceMatchesAnythingButASlash(pattern: String, source: String, allowed: Bool) {
        #expect(AllowedSourcePattern(pattern).matchesStart(of: source) == allowed)
    }
}
