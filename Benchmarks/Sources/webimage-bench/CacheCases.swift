import Dispatch
import Foundation
import Synchronization
import WebImage

/// The cache cases. Their peers are Swift baselines (``BenchCase/peerSetup``): what the same
/// work costs without the cache's bookkeeping.
let cacheCases: [BenchCase] = [
    BenchCase(
        "memory-hit",
        summary: "100k ImageCache.imageFromMemoryCache hits over 1,000 keys vs a bare Mutex<[String: Image]>",
        setup: { _ in
            let (cache, keys) = CacheBench.filledMemoryCache()
            return {
                var found = 0
                for index in 0..<CacheBench.lookups {
                    if let hit = cache.imageFromMemoryCache(forKey: keys[index % keys.count]) { found &+= hit.width }
                }
                return RunOutput(checksum: found, shape: "\(CacheBench.lookups)x1x1")
            }
        },
        swiftPeer: { _ in CacheBench.lockedDictionaryLookups(CacheBench.lookups) }),
    BenchCase(
        "memory-query",
        summary: "100k queryCacheOperation memory hits (synchronous completion) vs a bare Mutex<[String: Image]>",
        setup: { _ in
            let (cache, keys) = CacheBench.filledMemoryCache()
            return {
                let found = Mutex(0)
                for index in 0..<CacheBench.lookups {
                    cache.queryCacheOperation(forKey: keys[index % keys.count]) { image, _, _ in
                        found.withLock { $0 &+= image?.width ?? 0 }
                    }
                }
                return RunOutput(checksum: found.withLock { $0 }, shape: "\(CacheBench.lookups)x1x1")
            }
        },
        swiftPeer: { _ in
            let keys = CacheBench.keys(1_000)
            let image = CacheBench.smallImage()
            let table = Mutex([String: Image]())
            table.withLock { table in for key in keys { table[key] = image } }
            return {
                let found = Mutex(0)
                for index in 0..<CacheBench.lookups {
                    let hit = table.withLock { $0[keys[index % keys.count]] }
                    found.withLock { $0 &+= hit?.width ?? 0 }
                }
                return RunOutput(checksum: found.withLock { $0 }, shape: "\(CacheBench.lookups)x1x1")
            }
        }),
    BenchCase(
        "disk-hit",
        summary:
            "10 sequential queryImage calls from one task for a ~100 KB JPEG with memory caching off vs 10 × "
            + "Data(contentsOf:) + decode of the same file (a server handler is async: only the I/O-queue hop is ours)",
        setup: { context in
            let cache = try CacheBench.makeCache("disk-hit", memory: false)
            try cache.storeImageDataToDisk(try context.input("cache.jpg"), forKey: "cache.jpg")
            return {
                // Keep only the last result, as the peer keeps only its last image.
                let last = try CacheBench.wait {
                    var last = ImageCacheQueryResult.miss
                    for _ in 0..<CacheBench.diskHitBatch {
                        last = try await cache.queryImage(forKey: "cache.jpg")
                        guard last.cacheType == .disk else { throw BenchError("disk-hit missed") }
                    }
                    return last
                }
                guard let image = last.image else { throw BenchError("disk-hit missed") }
                return RunOutput(checksum: Int(image.bitmap.pixels[0]), shape: "\(image.width)x\(image.height)x1")
            }
        },
        swiftPeer: { context in
            // The cache's file frames the bytes with a checksummed header, so the peer reads a
            // plain file holding the same bytes, in the same kind of directory.
            let url = try CacheBench.freshDirectory("disk-hit-peer").appendingPathComponent("cache.jpg")
            try context.input("cache.jpg").write(to: url)
            var options = ImageDecodeOptions()
            options.fileExtensionHint = "jpg"
            return { [options] in
                var image: Image?
                for _ in 0..<CacheBench.diskHitBatch {
                    image = try ImageCodersManager.shared.decode(try Data(contentsOf: url), options: options)
                }
                guard let image else { throw BenchError("no image") }
                return RunOutput(checksum: Int(image.bitmap.pixels[0]), shape: "\(image.width)x\(image.height)x1")
            }
        }),
    BenchCase(
        "store-throughput",
        summary: "storeImageDataToDisk of 50 x ~100 KB entries vs Data.write(to:options:.atomic) of the same bytes",
        setup: { context in
            let data = try context.input("cache.jpg")
            let cache = try CacheBench.makeCache("store", memory: false)
            let keys = CacheBench.keys(CacheBench.storeCount)
            return {
                for key in keys { try cache.storeImageDataToDisk(data, forKey: key) }
                return RunOutput(checksum: data.count, shape: "\(keys.count)x1x1")
            }
        },
        swiftPeer: { context in
            let data = try context.input("cache.jpg")
            let directory = try CacheBench.freshDirectory("store-peer")
            let urls = (0..<CacheBench.storeCount).map { directory.appendingPathComponent("entry-\($0).jpg") }
            return {
                for url in urls { try data.write(to: url, options: .atomic) }
                return RunOutput(checksum: data.count, shape: "\(urls.count)x1x1")
            }
        }),
]

enum CacheBench {
    static let lookups = 100_000
    static let storeCount = 50

    /// A memory-only cache holding the same small image under 1,000 keys, and those keys.
    static func filledMemoryCache() -> (ImageCache, [String]) {
        let cache = makeMemoryCache()
        let keys = keys(1_000)
        let image = smallImage()
        for key in keys { cache.storeImageToMemory(image, forKey: key) }
        return (cache, keys)
    }

    static func keys(_ count: Int) -> [String] {
        (0..<count).map { "https://images.example.com/photos/\($0).jpg" }
    }

    static func smallImage() -> Image {
        Image(bitmap: ImageBitmap(width: 16, height: 16, fill: .white), hasAlpha: false)
    }

    /// Where the cases' disk caches live: `$WEBIMAGE_BENCH_TMPDIR`, else the temporary directory.
    static let scratchRoot =
        ProcessInfo.processInfo.environment["WEBIMAGE_BENCH_TMPDIR"] ?? FileManager.default.temporaryDirectory.path

    /// The bare baseline for memory hits: `count` lookups over 1,000 keys in a `Mutex<[String: Image]>`.
    static func lockedDictionaryLookups(_ count: Int) -> BenchCase.Body {
        let keys = keys(1_000)
        let image = smallImage()
        let table = Mutex([String: Image]())
        table.withLock { table in for key in keys { table[key] = image } }
        return {
            var found = 0
            for index in 0..<count {
                if let hit = table.withLock({ $0[keys[index % keys.count]] }) { found &+= hit.width }
            }
            return RunOutput(checksum: found, shape: "\(count)x1x1")
        }
    }

    /// An empty directory `webimage-bench-<name>` under ``scratchRoot``. The next process
    /// that asks for it moves this one into the trash, which scripts/bench empties at the end.
    static func freshDirectory(_ name: String) throws -> URL {
        let root = URL(fileURLWithPath: scratchRoot, isDirectory: true)
        let url = root.appendingPathComponent("webimage-bench-\(name)")
        if FileManager.default.fileExists(atPath: url.path) {
            // Moved aside, not deleted: on ext4, files created within about 30 s of deleting
            // thousands make the kernel skip every recently freed inode, a cost of this
            // harness's cleanup, not of the case. scripts/bench empties the trash at the end.
            let trash = root.appendingPathComponent(trashName)
            try? FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
            let aside = trash.appendingPathComponent("\(name)-\(UUID().uuidString)")
            if (try? FileManager.default.moveItem(at: url, to: aside)) == nil {
                try? FileManager.default.removeItem(at: url)
            }
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Empties every file under `directory` (truncated to 0 bytes, not deleted), so that the
    /// memory their data held in the page cache serves the next run's writes.
    ///
    /// Called between runs, untimed. On this harness's VM (Firecracker, with the balloon's free
    /// page reporting) memory the guest has not used lately goes back to the host, and the
    /// first write to it costs a host page fault: `dd` wrote 1 GB of new file data at 0.42 GB/s
    /// into such memory and at 6 GB/s into memory just freed. Without this, every run's files
    /// grow the page cache into such memory, which no server with a full page cache pays, and
    /// the cost grows as earlier runs fill the recycled memory. Deleting the files instead would
    /// make ext4 skip their recently freed inodes on every later create (see ``freshDirectory(_:)``).
    static func recycleFiles(in directory: URL) throws {
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw BenchError("cannot list \(directory.path)")
        }
        for case let file as URL in files where truncate(file.path, 0) != 0 && errno != EISDIR {
            throw BenchError("cannot truncate \(file.path): errno \(errno)")
        }
    }

    /// Where ``freshDirectory(_:)`` moves old directories (under ``scratchRoot``).
    static let trashName = "webimage-bench-trash"

    /// A real cache (``MemoryCache`` + ``DiskCache``) in a fresh directory.
    static func makeCache(_ name: String, memory: Bool) throws -> ImageCache {
        var config = ImageCacheConfig()
        config.shouldCacheImagesInMemory = memory
        return try ImageCache(namespace: "bench", directory: try freshDirectory(name), config: config)
    }

    /// A cache whose memory part is the real ``MemoryCache``; the disk part is never touched
    /// by the memory cases.
    static func makeMemoryCache() -> ImageCache {
        let config = ImageCacheConfig()
        return ImageCache(config: config, memoryCache: MemoryCache(config: config), diskCache: NoDiskCache())
    }

    /// Runs async work from a synchronous body (the harness times synchronous closures).
    /// Disk-hit queries per timed run, so the harness's sync-to-async bridge is amortised.
    static let diskHitBatch = 10

    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let value = try await work()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw BenchError("no result") }
        return try outcome.get()
    }
}

/// A disk cache that holds nothing, for the cases that measure memory only.
final class NoDiskCache: DiskCaching {
    func containsData(forKey key: String) -> Bool { false }
    func data(forKey key: String) -> Data? { nil }
    func entry(forKey key: String) -> DiskCacheEntry? { nil }
    func setData(_ data: Data, forKey key: String, metadata: DiskCacheMetadata?) throws(WebImageError) {}
    func extendedData(forKey key: String) -> Data? { nil }
    func setExtendedData(_ extendedData: Data?, forKey key: String) throws(WebImageError) {}
    func removeData(forKey key: String) {}
    func removeAllData() throws(WebImageError) {}
    func removeExpiredData() throws(WebImageError) {}
    func cachePath(forKey key: String) -> String { "" }
    var totalCount: Int { 0 }
    var totalSize: Int { 0 }
}
