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
            /{signature}/{options}/{base64url source}[.{ext}]; GET /health. Every option can also be set \
            by an environment variable: WEBIMAGE_HOST, WEBIMAGE_PORT, WEBIMAGE_CACHE_DIR, WEBIMAGE_KEY, \
            WEBIMAGE_SALT, WEBIMAGE_ALLOW_LOOPBACK_SOURCES, WEBIMAGE_ALLOW_PRIVATE_SOURCES, \
            WEBIMAGE_ALLOWED_SOURCES (comma-separated), WEBIMAGE_MAX_SOURCE_BYTES, \
            WEBIMAGE_MAX_SOURCE_PIXELS, WEBIMAGE_MAX_ANIMATION_FRAMES, WEBIMAGE_WORKERS, WEBIMAGE_QUEUE, WEBIMAGE_TIMEOUT, WEBIMAGE_TTL, WEBIMAGE_QUALITY, WEBIMAGE_NO_AUTO_FORMAT (1 or true), \
            WEBIMAGE_DRAIN_DELAY, WEBIMAGE_DEMO (1 or true), WEBIMAGE_S3_ENDPOINT, WEBIMAGE_S3_BUCKET, \
            WEBIMAGE_S3_REGION, WEBIMAGE_S3_PREFIX, WEBIMAGE_S3_SOURCES (1 or true), WEBIMAGE_S3_TIMEOUT. \
            The S3 tier signs with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; when S3 \
            is slow or down, a lookup costs at most its timeout and reads as a miss. \
            A flag wins over its variable. SIGTERM or SIGINT stops accepting, finishes the requests in \
            flight and exits 0.
            """)

    @Option(help: "The address to listen on (default 127.0.0.1).")
    var host: String?

    @Option(help: "The port to listen on (default 8080).")
    var port: Int?

    @Option(help: "Where sources and results are cached on disk (default: no disk cache).")
    var cacheDir: String?

    @Option(
        help: ArgumentHelp("Signing keys in hex, comma-separated; pairs with --salt in order.", valueName: "HEX,..."))
    var key: String?

    @Option(help: ArgumentHelp("Signing salts in hex, comma-separated; one per key.", valueName: "HEX,..."))
    var salt: String?

    @Flag(help: "Allow sources on loopback addresses (refused by default).")
    var allowLoopbackSources = false

    @Flag(help: "Allow sources on private, CGNAT, unique-local and IPv4-mapped addresses (refused by default).")
    var allowPrivateSources = false

    @Option(help: ArgumentHelp("Fetch only sources starting with this prefix (repeatable).", valueName: "PREFIX"))
    var allowedSource: [String] = []

    @Option(help: "Refuse sources larger than this many bytes (default 64 MiB).")
    var maxSourceBytes: Int?

    @Option(help: "Refuse sources with more pixels than this (default 50 million).")
    var maxSourcePixels: Int?

    @Option(help: "Refuse animations with more frames than this (default 1000).")
    var maxAnimationFrames: Int?

    @Option(help: "Results made at once (default: the core count).")
    var workers: Int?

    @Option(help: "Results that may wait for a worker; more get 429 (default 256).")
    var queue: Int?

    @Option(help: "Seconds a result may wait for a worker before 503, above 0 and at most 86400 (default 10).")
    var timeout: Double?

    @Option(help: "Cache-Control max-age of results, in seconds; a negative value is 0 (default one year).")
    var ttl: Int?

    @Option(help: "Quality 1...100 for lossy output when the URL gives none (default 80; WebP 79, AVIF 63).")
    var quality: Int?

    @Flag(help: "Do not pick WebP or AVIF from the Accept header when the URL names no format.")
    var noAutoFormat = false

    @Option(help: "Seconds to go on serving after SIGTERM, /health answering 503, before draining (default 0).")
    var drainDelay: Double?

    @Flag(
        help: """
            Start a loopback origin of example images and serve a gallery of signed URLs at / \
            (allows loopback sources; signs with a key made for the run when none is given).
            """)
    var demo = false

    @OptionGroup var s3: ServeS3Options

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings = ServeSettings(environment: environment)
        var configuration = ServiceConfiguration()
        configuration.signer = try settings.signer(keys: key, salts: salt)
        configuration.allowsLoopbackSources = allowLoopbackSources || settings.flag("ALLOW_LOOPBACK_SOURCES")
        configuration.allowsPrivateSources = allowPrivateSources || settings.flag("ALLOW_PRIVATE_SOURCES")
        configuration.allowedSourcePrefixes = allowedSource.isEmpty ? settings.list("ALLOWED_SOURCES") : allowedSource
        let counts = try settings.positive(
            [
                ("MAX_SOURCE_BYTES", "--max-source-bytes", maxSourceBytes),
                ("MAX_SOURCE_PIXELS", "--max-source-pixels", maxSourcePixels),
                ("MAX_ANIMATION_FRAMES", "--max-animation-frames", maxAnimationFrames),
                ("WORKERS", "--workers", workers),
            ])
        configuration.maxSourceBytes = counts["MAX_SOURCE_BYTES"] ?? configuration.maxSourceBytes
        configuration.maxSourcePixels = counts["MAX_SOURCE_PIXELS"] ?? configuration.maxSourcePixels
        configuration.maxAnimationFrames = counts["MAX_ANIMATION_FRAMES"] ?? configuration.maxAnimationFrames
        configuration.workers = counts["WORKERS"] ?? configuration.workers
        if let value = try queue ?? settings.integer("QUEUE") {
            guard value >= 0 else { throw CommandFailure("--queue must be 0 or more") }
            configuration.queueLimit = value
        }
        if let value = try timeout ?? settings.number("TIMEOUT") {
            guard value > 0, value <= 86_400 else {
                throw CommandFailure("--timeout must be a number of seconds above 0 and at most 86400")
            }
            configuration.queueTimeout = value
        }
        if let value = try ttl ?? settings.integer("TTL") { configuration.timeToLive = max(0, value) }
        if let value = try quality ?? settings.integer("QUALITY") {
            guard (1...100).contains(value) else { throw CommandFailure("--quality must be within 1...100") }
            configuration.defaultQuality = value
            configuration.formatQualities = [:]
        }
        configuration.automaticFormat = !(noAutoFormat || settings.flag("NO_AUTO_FORMAT"))
        let drainSeconds = try drainDelay ?? settings.number("DRAIN_DELAY") ?? 0
        guard drainSeconds.isFinite, (0...3600).contains(drainSeconds) else {
            throw CommandFailure("--drain-delay must be within 0...3600 seconds")
        }
        let listenHost = host ?? settings.string("HOST") ?? "127.0.0.1"
        let listenPort = try port ?? settings.integer("PORT") ?? 8080
        guard (0...65_535).contains(listenPort) else { throw CommandFailure("--port must be within 0...65535") }
        if let directory = cacheDir ?? settings.string("CACHE_DIR") {
            configuration.cacheDirectory = URL(fileURLWithPath: directory)
        }
        configuration.s3 = try s3.configuration(settings)
        let logger = Logger(label: "webimage.serve")
        let showcase = demo || settings.flag("DEMO")
        if showcase {
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
        let metrics = ServiceMetrics()
        // The library's own swift-metrics counters (downloads, cache hits) join /metrics.
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
        let service = try ImageService(configuration: configuration, logger: logger, metrics: metrics)
        let gallery = showcase ? try await ServeDemo.start(signer: configuration.signer) : nil
        let app = ImageServer.application(
            service: service, host: listenHost, port: listenPort, logger: logger, homePage: gallery?.page
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
                app, service: service, drainDelay: .milliseconds(Int64(clamping: drainSeconds * 1000)), logger: logger)
        } catch {
            await gallery?.stop()
            throw error
        }
        await gallery?.stop()
        // Drained: let the cache writes finish and close the source client.
        await service.shutdown()
    }
}

/// `WEBIMAGE_*` environment variables, read when the matching flag is absent.
struct ServeSettings {
    let environment: [String: String]

    func string(_ name: String) -> String? {
        environment["WEBIMAGE_" + name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func list(_ name: String) -> [String] {
        string(name)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
    }

    func integer(_ name: String) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else { throw CommandFailure("WEBIMAGE_\(name) must be a whole number") }
        return value
    }

    func number(_ name: String) throws -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = Double(text) else { throw CommandFailure("WEBIMAGE_\(name) must be a number") }
        return value
    }

    func flag(_ name: String) -> Bool {
        ["1", "true", "yes"].contains(string(name)?.lowercased() ?? "")
    }

    /// For each (variable, flag, flag value): the flag's value, else the variable's, checked to
    /// be positive; keyed by variable name, absent when neither is given.
    func positive(_ settings: [(variable: String, flag: String, value: Int?)]) throws -> [String: Int] {
        var values: [String: Int] = [:]
        for (variable, flag, given) in settings {
            guard let value = try given ?? integer(variable) else { continue }
            guard value > 0 else { throw CommandFailure("\(flag) must be positive") }
            values[variable] = value
        }
        return values
    }

    /// The key/salt pairs from the flags, else from `WEBIMAGE_KEY` and `WEBIMAGE_SALT`.
    func signer(keys: String?, salts: String?) throws -> URLSigner {
        let keyList = (keys ?? string("KEY") ?? "").split(separator: ",").map(String.init)
        let saltList = (salts ?? string("SALT") ?? "").split(separator: ",").map(String.init)
        guard keyList.count == saltList.count else {
            throw CommandFailure(
                "--key and --salt must list as many values (\(keyList.count) keys, \(saltList.count) salts)")
        }
        var pairs: [URLSigner.KeyPair] = []
        for (key, salt) in zip(keyList, saltList) {
            guard let pair = URLSigner.KeyPair(hexKey: key, hexSalt: salt) else {
                throw CommandFailure("--key and --salt take non-empty hex strings")
            }
            pairs.append(pair)
        }
        return URLSigner(keyPairs: pairs)
    }
}
