import ArgumentParser
import Foundation
import WebImage

/// `webimage cache info|clear|trim [--cache-dir DIR] [--json]`: the disk cache's size, emptying
/// it, and sweeping expired entries.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect, clear or trim the disk cache.",
        subcommands: [Info.self, Clear.self, Trim.self])

    /// What every cache subcommand accepts.
    struct Options: ParsableArguments {
        @Option(
            name: .customLong("cache-dir"),
            help: ArgumentHelp(
                "The cache directory (default: the shared cache's, $XDG_CACHE_HOME/swift-web-image/default).",
                valueName: "DIR"))
        var cacheDirectory: String?

        @Flag(help: "Print one JSON object.")
        var json = false

        /// The cache in the chosen directory; memory caching is off unless `memory` (a command
        /// that loads the same URL twice in one run benefits from it; one that only touches disk does not).
        func openCache(config: ImageCacheConfig = ImageCacheConfig(), memory: Bool = false) throws -> (ImageCache, URL)
        {
            var config = config
            config.shouldCacheImagesInMemory = memory
            let directory =
                cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? DiskCache.defaultDirectory(namespace: "default")
            if let cacheDirectory, cacheDirectory.isEmpty || cacheDirectory.contains("\0") {
                throw CommandFailure("--cache-dir needs a directory path")
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue
            {
                throw CommandFailure("--cache-dir \(directory.path) is not a directory")
            }
            return (try ImageCache(directory: directory, config: config), directory)
        }

        /// Prints `fields` as text lines or as one JSON object (keys in the given order).
        func report(_ fields: [(String, CacheValue)]) {
            if json {
                print("{" + fields.map { "\"\($0.0)\":\($0.1.json)" }.joined(separator: ",") + "}")
            } else {
                for (name, value) in fields { print("\(name): \(value.text)") }
            }
        }
    }

    /// A value in a report.
    enum CacheValue {
        case string(String)
        case number(Int)

        var text: String {
            switch self {
            case .string(let value): value
            case .number(let value): String(value)
            }
        }

        var json: String {
            switch self {
            case .number(let value): return String(value)
            case .string(let value):
                let data = (try? JSONEncoder().encode(value)) ?? Data("\"\"".utf8)
                return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the cache's path, entry count and size.")

        @OptionGroup var options: Options

        func run() async throws {
            let (cache, directory) = try options.openCache()
            let count = await cache.totalDiskCount()
            let bytes = await cache.totalDiskSize()
            options.report([("path", .string(directory.path)), ("count", .number(count)), ("bytes", .number(bytes))])
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every entry from the cache.")

        @OptionGroup var options: Options

        func run() async throws {
            let (cache, directory) = try options.openCache()
            try await CacheCommand.runReportingRemoval(cache, directory, options) { try await cache.clearDisk() }
        }
    }

    struct Trim: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove expired entries, then the oldest until under half the size limit.")

        @OptionGroup var options: Options

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Age limit in seconds (default: one week; negative: never expire).", valueName: "SECONDS"))
        var maxAge: FiniteNumber?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Size limit in bytes, 0 or more (default: 0, unlimited).", valueName: "BYTES"))
        var maxSize: ByteCount?

        func run() async throws {
            var config = ImageCacheConfig()
            if let maxAge { config.maxDiskAge = maxAge.value }
            if let maxSize { config.maxDiskSize = maxSize.value }
            let (cache, directory) = try options.openCache(config: config)
            try await CacheCommand.runReportingRemoval(cache, directory, options) {
                try await cache.removeExpiredData()
            }
        }
    }

    /// Runs `removal` and reports what it removed and what is left.
    static func runReportingRemoval(
        _ cache: ImageCache, _ directory: URL, _ options: Options, _ removal: () async throws -> Void
    ) async throws {
        let countBefore = await cache.totalDiskCount()
        let bytesBefore = await cache.totalDiskSize()
        try await removal()
        let count = await cache.totalDiskCount()
        let bytes = await cache.totalDiskSize()
        options.report([
            ("path", .string(directory.path)),
            ("removedCount", .number(max(0, countBefore - count))),
            ("removedBytes", .number(max(0, bytesBefore - bytes))),
            ("count", .number(count)),
            ("bytes", .number(bytes)),
        ])
    }
}
