import AsyncHTTPClient
import Foundation
import Synchronization
import WebImage
import WebImageTestOrigin

/// The manager cases: coalescing, the memory-hit path of `loadImage`, and the whole pipeline
/// (download, decode, store), each against the least work that could give the same result.
let managerCases: [BenchCase] = [
    BenchCase(
        "manager-coalesced-1000",
        summary:
            "1,000 concurrent ImageManager.loadImage of one uncached ~100 KB JPEG URL vs one raw AsyncHTTPClient download + one decode",
        setup: { context in
            let origin = try DownloadBench.origin(context, count: 1)
            let body = try context.input("cache.jpg")
            let cache = try CacheBench.makeCache("manager-coalesced", memory: true)
            let manager = ImageManager(cache: cache, loader: ImageDownloader())
            let run = Atomic<Int>(0)
            return {
                // A path never loaded before, so every run starts uncached.
                let path = "/coalesced/\(run.wrappingAdd(1, ordering: .relaxed).oldValue).jpg"
                origin.server.register(path: path, body: body, contentType: "image/jpeg")
                let url = origin.server.url(path)
                let total = try CacheBench.wait {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for _ in 0..<ManagerBench.concurrentLoads {
                            group.addTask { try await manager.loadImage(with: url).image.width }
                        }
                        return try await group.reduce(0, +)
                    }
                }
                let requests = origin.server.requestCount(path: path)
                guard requests == 1 else { throw BenchError("\(requests) origin requests for one URL, expected 1") }
                return RunOutput(checksum: total, shape: "\(ManagerBench.concurrentLoads)x1x1")
            }
        },
        swiftPeer: { context in
            let origin = try DownloadBench.origin(context, count: 1)
            let client = DownloadBench.peerClient()
            return {
                let width = try CacheBench.wait {
                    let request = HTTPClientRequest(url: origin.urls[0].absoluteString)
                    let response = try await client.execute(request, timeout: .seconds(30))
                    let buffer = try await response.body.collect(upTo: 16 << 20)
                    return try ImageCodersManager.shared.decode(
                        Data(buffer.readableBytesView), options: ImageDecodeOptions()
                    ).width
                }
                // Every one of the 1,000 callers gets that one image.
                return RunOutput(
                    checksum: width * ManagerBench.concurrentLoads, shape: "\(ManagerBench.concurrentLoads)x1x1")
            }
        }),
    BenchCase(
        "manager-memory-hit",
        summary: "20k ImageManager.loadImage (async) memory hits over 1,000 URLs vs a bare Mutex<[String: Image]>",
        setup: { _ in
            let (cache, keys) = CacheBench.filledMemoryCache()
            let urls = try keys.map { key in
                guard let url = URL(string: key) else { throw BenchError("bad key \(key)") }
                return url
            }
            let manager = ImageManager(cache: cache, loader: ImageDownloader())
            return {
                let found = try CacheBench.wait {
                    var found = 0
                    for index in 0..<ManagerBench.memoryHits {
                        found &+= try await manager.loadImage(with: urls[index % urls.count]).image.width
                    }
                    return found
                }
                return RunOutput(checksum: found, shape: "\(ManagerBench.memoryHits)x1x1")
            }
        },
        swiftPeer: { _ in CacheBench.lockedDictionaryLookups(ManagerBench.memoryHits) }),
    BenchCase(
        "manager-pipeline",
        summary:
            "1,000 distinct ~100 KB JPEG URLs through ImageManager.loadImage (download + decode + disk store, 6 concurrent) vs raw AsyncHTTPClient + decode, 6 workers",
        setup: { context in
            try ManagerBench.pipeline(context, name: "manager-pipeline") { manager, origin in
                try CacheBench.wait {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for url in origin.urls {
                            group.addTask { try await ManagerBench.storedLoad(url, manager) }
                        }
                        return try await group.reduce(0, +)
                    }
                }
            }
        },
        swiftPeer: ManagerBench.pipelinePeer),
    BenchCase(
        "manager-pipeline-workers",
        summary:
            "1,000 distinct ~100 KB JPEG URLs through ImageManager.loadImage (download + decode + disk store), called by 6 workers as the peer does, vs raw AsyncHTTPClient + decode, 6 workers",
        setup: { context in
            try ManagerBench.pipeline(context, name: "manager-pipeline-workers") { manager, origin in
                try DownloadBench.workers(origin) { try await ManagerBench.storedLoad($0, manager) }
            }
        },
        swiftPeer: ManagerBench.pipelinePeer),
]

enum ManagerBench {
    /// The pipeline cases' setup: 1,000 JPEG URLs, a downloader with 6 slots, and per run a
    /// manager over a fresh disk cache (memory caching off), so every URL is a miss and is
    /// stored again. `drive` makes the loads and returns the bytes they brought.
    static func pipeline(
        _ context: BenchContext, name: String,
        drive: @escaping @Sendable (ImageManager, DownloadBench.Origin) throws -> Int
    ) throws -> BenchCase.Body {
        let origin = try DownloadBench.origin(context, count: pipelineCount)
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = DownloadBench.concurrency
        let downloader = ImageDownloader(config: config)
        let root = try CacheBench.freshDirectory(name)
        let run = Atomic<Int>(0)
        return {
            var cacheConfig = ImageCacheConfig()
            cacheConfig.shouldCacheImagesInMemory = false
            let directory = root.appendingPathComponent("\(run.wrappingAdd(1, ordering: .relaxed).oldValue)")
            let cache = try ImageCache(namespace: "bench", directory: directory, config: cacheConfig)
            var output = try DownloadBench.output(
                try drive(ImageManager(cache: cache, loader: downloader), origin), origin)
            output.afterRun = { try CacheBench.recycleFiles(in: directory) }
            return output
        }
    }

    /// One pipeline load that returns once its disk store has ended, so the store is timed.
    @Sendable static func storedLoad(_ url: URL, _ manager: ImageManager) async throws -> Int {
        try await manager.loadImage(with: url, options: .waitStoreCache).data?.count ?? 0
    }

    /// The pipeline cases' peer: raw AsyncHTTPClient and a decode, 6 workers, nothing stored.
    @Sendable static func pipelinePeer(_ context: BenchContext) throws -> BenchCase.Body {
        let origin = try DownloadBench.origin(context, count: pipelineCount)
        let client = DownloadBench.peerClient()
        return {
            let total = try DownloadBench.peerRun(origin, client, consume: DownloadBench.decodedBytes)
            return try DownloadBench.output(total, origin)
        }
    }

    static let concurrentLoads = 1_000
    static let memoryHits = 20_000
    static let pipelineCount = 1_000
}
