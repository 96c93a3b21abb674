import ArgumentParser
import Foundation
import WebImage

/// `webimage prefetch <url>... [--input FILE] [--cache-dir DIR] [--concurrency N] [--json]`:
/// downloads images into the persistent disk cache through an ``ImagePrefetcher``.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Download images into the disk cache ahead of need.")

    @Argument(help: "Image URLs (http or https).")
    var urls: [String] = []

    @Option(help: ArgumentHelp("A file of URLs, one a line; '-' reads standard input.", valueName: "FILE"))
    var input: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Downloads at once, 1 to \(Concurrency.maximum).", valueName: "N"))
    var concurrency = Concurrency(value: 3)

    @OptionGroup var cacheOptions: CacheCommand.Options

    func run() async throws {
        var requested = urls
        if let input { requested += try URLListReader.read(input) }
        guard !requested.isEmpty else { throw CommandFailure("no URLs: give them as arguments or with --input FILE") }
        let (cache, _) = try cacheOptions.openCache()

        var valid: [URL] = []
        var errors: [(String, String)] = []
        for text in requested {
            if let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https",
                url.host?.isEmpty == false
            {
                valid.append(url)
            } else {
                errors.append((text, WebImageError.invalidURL(text).description))
            }
        }

        var config = ImageDownloaderConfig.default
        config.maxConcurrentDownloads = concurrency.value
        let downloader = ImageDownloader(config: config)
        let prefetcher = ImagePrefetcher(manager: ImageManager(cache: cache, loader: downloader))
        prefetcher.maxConcurrentPrefetchCount = concurrency.value
        let recorder = SkipRecorder()
        prefetcher.delegate = recorder
        let display = ProgressDisplay(total: requested.count, label: "prefetch")
        display.update(errors.count)
        let invalidCount = errors.count
        let result = await prefetcher.prefetch(valid, options: [.lowPriority, .waitStoreCache]) { finished, _ in
            display.update(invalidCount + finished)
        }
        display.finish()
        await downloader.shutdown()
        errors += recorder.skipped
        let statistics = downloader.statistics
        let skipped = result.skippedCount + invalidCount
        report(
            requested: requested.count, finished: result.finishedCount, skipped: skipped, statistics: statistics,
            errors: errors)
        if skipped > 0 {
            let first = errors.first.map { ": first \($0.0): \($0.1)" } ?? ""
            throw CommandFailure("\(skipped) of \(requested.count) URLs skipped\(first)")
        }
    }

    private func report(
        requested: Int, finished: Int, skipped: Int, statistics: ImageDownloaderStatistics, errors: [(String, String)]
    ) {
        typealias Value = CacheCommand.CacheValue
        if cacheOptions.json {
            let errorObjects = errors.map { url, error in
                "{\"url\":\(Value.string(url).json),\"error\":\(Value.string(error).json)}"
            }
            let fields: [(String, String)] = [
                ("requested", String(requested)), ("finished", String(finished)), ("skipped", String(skipped)),
                ("httpRequests", String(statistics.requestCount)),
                ("bytesDownloaded", String(statistics.receivedBytes)),
                ("errors", "[" + errorObjects.joined(separator: ",") + "]"),
            ]
            print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
        } else {
            print("requested: \(requested)")
            print("finished: \(finished)")
            print("skipped: \(skipped)")
            print("httpRequests: \(statistics.requestCount)")
            print("bytesDownloaded: \(statistics.receivedBytes)")
            for (url, error) in errors { print("skipped \(url): \(error)") }
        }
    }
}

/// Collects the prefetcher's skipped URLs and their errors.
private final class SkipRecorder: ImagePrefetcherDelegate {
    /// Behind a lock: the delegate may be called from any queue.
    private let entries = Locked<[(String, String)]>([])

    var skipped: [(String, String)] { entries.withLock { $0 } }

    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didSkip url: URL, error: WebImageError?) {
        let message = error?.description ?? "not loaded"
        entries.withLock { $0.append((url.absoluteString, message)) }
    }
}

/// Reads a list of URLs: one a line, blank lines and `#` comments skipped.
enum URLListReader {
    /// Largest list read (16 MiB).
    static let maxBytes = 16 << 20

    static func read(_ path: String) throws -> [String] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure("--input '\(path)': no such file")
            }
            guard !isDirectory.boolValue else { throw CommandFailure("--input '\(path)' is a directory") }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CommandFailure("--input '\(path)': cannot read")
            }
            defer { try? handle.close() }
            data = (try? handle.read(upToCount: maxBytes + 1)) ?? Data()
        }
        guard data.count <= maxBytes else { throw CommandFailure("--input is over \(maxBytes) bytes") }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
