import ArgumentParser
import Foundation
import WebImage

/// `webimage fetch <url>... [--input FILE] [--out DIR] [--cache-dir DIR] [--concurrency N]
/// [--options LIST] [--thumbnail WxH] [transform flags] [--json]`: loads images through an
/// ``ImageManager`` over the persistent disk cache, optionally writing them to a directory.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the cache and downloader, optionally saving them.",
        discussion: """
            Without --out, fetch only warms the cache and reports. With --out, each image is written \
            as a file named after the URL's last path component, with the extension of the written \
            format (the downloaded bytes as they are, or PNG/the image's format when transformed); \
            clashing names get -2, -3, ... Exits non-zero if any URL failed.
            """)

    @Argument(help: "Image URLs (http or https).")
    var urls: [String] = []

    @Option(help: ArgumentHelp("A file of URLs, one a line; '-' reads standard input.", valueName: "FILE"))
    var input: String?

    @Option(help: ArgumentHelp("Write each image into DIR (created if missing).", valueName: "DIR"))
    var out: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Loads at once, 1 to \(Concurrency.maximum).", valueName: "N"))
    var concurrency = Concurrency(value: 3)

    @Option(
        help: ArgumentHelp(
            "Comma-separated WebImageOptions names, e.g. retryFailed,refreshCached,fromCacheOnly.",
            valueName: "LIST"),
        transform: { try FetchOptionNames.parse($0) })
    var options: WebImageOptions?

    @Option(
        help: ArgumentHelp("Decode no larger than WxH, keeping the aspect ratio (never upscales).", valueName: "WxH"))
    var thumbnail: PixelSize?

    @OptionGroup var cacheOptions: CacheCommand.Options

    @OptionGroup var transforms: TransformOptions

    func validate() throws {
        if let out, out.isEmpty || out.contains("\0") { throw ValidationError("--out needs a directory path") }
    }

    func run() async throws {
        var requested = urls
        if let input { requested += try URLListReader.read(input) }
        guard !requested.isEmpty else { throw CommandFailure("no URLs: give them as arguments or with --input FILE") }
        let loadOptions = (options ?? []).union(.waitStoreCache)
        let writer = try out.map { try FetchOutputWriter(directory: $0) }
        let (cache, _) = try cacheOptions.openCache(memory: true)

        var context = WebImageContext()
        if let thumbnail { context.imageThumbnailPixelSize = thumbnail }
        if let transformer = try transforms.makeTransformer() { context.imageTransformer = .transformer(transformer) }
        let altered = thumbnail != nil || context.imageTransformer != nil

        var config = ImageDownloaderConfig.default
        config.maxConcurrentDownloads = concurrency.value
        let downloader = ImageDownloader(config: config)
        let manager = ImageManager(cache: cache, loader: downloader)
        let display = ProgressDisplay(total: requested.count, label: "fetch")
        let tally = FetchTally()

        let list = requested
        let loadContext = context
        await withTaskGroup(of: Void.self) { group in
            // At most `concurrency` loads in flight: each finished one starts the next.
            for (index, text) in list.enumerated() {
                if index >= concurrency.value { await group.next() }
                group.addTask {
                    do {
                        let url = try Self.httpURL(text)
                        let result = try await manager.loadImage(with: url, options: loadOptions, context: loadContext)
                        let written = try writer?.write(result, altered: altered)
                        tally.succeeded(result.cacheType, written: written)
                    } catch {
                        tally.failed(text, String(describing: error))
                    }
                    display.update(tally.finished, bytes: downloader.statistics.receivedBytes)
                }
            }
        }
        display.finish()
        await downloader.shutdown()

        let summary = tally.summary(requested: requested.count, statistics: downloader.statistics)
        print(cacheOptions.json ? summary.json : summary.text)
        if let first = summary.errors.first {
            throw CommandFailure(
                "\(summary.errors.count) of \(requested.count) URLs failed: first \(first.url): \(first.error)")
        }
    }

    /// Only http and https reach the downloader; anything else is an invalid URL here.
    private static func httpURL(_ text: String) throws(WebImageError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { throw .invalidURL(text) }
        return url
    }
}

/// Counts what `fetch` loaded, from any task.
final class FetchTally: Sendable {
    private struct State {
        var fromMemory = 0
        var fromDisk = 0
        var fromNetwork = 0
        var written: [String] = []
        var errors: [(url: String, error: String)] = []
    }
    /// Behind a lock: loads finish on many tasks at once.
    private let state = Locked(State())

    var finished: Int { state.withLock { $0.fromMemory + $0.fromDisk + $0.fromNetwork + $0.errors.count } }

    func succeeded(_ cacheType: ImageCacheType, written: String?) {
        state.withLock { state in
            switch cacheType {
            case .memory, .all: state.fromMemory += 1
            case .disk: state.fromDisk += 1
            case .none: state.fromNetwork += 1
            }
            if let written { state.written.append(written) }
        }
    }

    func failed(_ url: String, _ error: String) {
        state.withLock { $0.errors.append((url, error)) }
    }

    func summary(requested: Int, statistics: ImageDownloaderStatistics) -> FetchSummary {
        state.withLock { state in
            FetchSummary(
                requested: requested, fromMemory: state.fromMemory, fromDisk: state.fromDisk,
                fromNetwork: state.fromNetwork, httpRequests: statistics.requestCount,
                bytesDownloaded: statistics.receivedBytes, written: state.written.sorted(),
                errors: state.errors.sorted { ($0.url, $0.error) < ($1.url, $1.error) })
        }
    }
}

/// What `fetch` reports, as text lines or the contract's JSON object.
struct FetchSummary {
    var requested: Int
    var fromMemory: Int
    var fromDisk: Int
    var fromNetwork: Int
    var httpRequests: Int
    var bytesDownloaded: Int
    var written: [String]
    var errors: [(url: String, error: String)]

    var succeeded: Int { fromMemory + fromDisk + fromNetwork }

    private var counts: [(String, Int)] {
        [
            ("requested", requested), ("succeeded", succeeded), ("failed", errors.count),
            ("fromMemory", fromMemory), ("fromDisk", fromDisk), ("fromNetwork", fromNetwork),
            ("httpRequests", httpRequests), ("bytesDownloaded", bytesDownloaded),
        ]
    }

    var json: String {
        typealias Value = CacheCommand.CacheValue
        let errorObjects = errors.map {
            "{\"url\":\(Value.string($0.url).json),\"error\":\(Value.string($0.error).json)}"
        }
        let fields = counts.map { "\"\($0.0)\":\($0.1)" } + ["\"errors\":[" + errorObjects.joined(separator: ",") + "]"]
        return "{" + fields.joined(separator: ",") + "}"
    }

    var text: String {
        let lines =
            counts.map { "\($0.0): \($0.1)" } + written.map { "wrote \($0)" }
            + errors.map { "failed \($0.url): \($0.error)" }
        return lines.joined(separator: "\n")
    }
}

/// `--options` names: `WebImageOptions` members in lowerCamelCase, as in Swift.
enum FetchOptionNames {
    /// The members that change what a command-line load does (view-only ones such as
    /// delayPlaceholder or forceTransition are left out).
    static let all: [(String, WebImageOptions)] = [
        ("retryFailed", .retryFailed), ("lowPriority", .lowPriority), ("highPriority", .highPriority),
        ("progressiveLoad", .progressiveLoad), ("refreshCached", .refreshCached),
        ("continueInBackground", .continueInBackground), ("handleCookies", .handleCookies),
        ("allowInvalidSSLCertificates", .allowInvalidSSLCertificates),
        ("transformAnimatedImage", .transformAnimatedImage), ("scaleDownLargeImages", .scaleDownLargeImages),
        ("queryMemoryData", .queryMemoryData), ("queryMemoryDataSync", .queryMemoryDataSync),
        ("queryDiskDataSync", .queryDiskDataSync), ("fromCacheOnly", .fromCacheOnly),
        ("fromLoaderOnly", .fromLoaderOnly), ("avoidDecodeImage", .avoidDecodeImage),
        ("decodeFirstFrameOnly", .decodeFirstFrameOnly), ("preloadAllFrames", .preloadAllFrames),
        ("matchAnimatedImageClass", .matchAnimatedImageClass), ("waitStoreCache", .waitStoreCache),
    ]

    /// The options `list` names, for argument-parser to report an unknown name against the flag.
    static func parse(_ list: String) throws -> WebImageOptions {
        var options: WebImageOptions = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let option = all.first(where: { $0.0 == name })?.1 else {
                throw ValidationError(
                    "unknown option '\(name)'; valid names: " + all.map(\.0).joined(separator: ", "))
            }
            options.insert(option)
        }
        return options
    }
}
