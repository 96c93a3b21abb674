import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import WebImage
import WebImageTestOrigin

/// The download cases: 2,000 distinct ~100 KB URLs on an in-process loopback origin, 6 at a
/// time. The peer is raw AsyncHTTPClient with 6 workers (`peer` "swift"), so both sides share
/// the origin, the event loops and the build.
let downloadCases: [BenchCase] = [
    BenchCase(
        "download-throughput",
        summary:
            "2,000 distinct 100 KB URLs via ImageDownloader.downloadData (6 concurrent) vs raw AsyncHTTPClient, 6 workers",
        setup: { context in
            let origin = try DownloadBench.origin(context)
            var config = ImageDownloaderConfig()
            config.maxConcurrentDownloads = DownloadBench.concurrency
            let downloader = ImageDownloader(config: config)
            return {
                let total = try CacheBench.wait {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for url in origin.urls {
                            group.addTask { try await downloader.downloadData(with: url).count }
                        }
                        return try await group.reduce(0, +)
                    }
                }
                return try DownloadBench.output(total, origin)
            }
        },
        swiftPeer: { context in
            let origin = try DownloadBench.origin(context)
            let client = DownloadBench.peerClient()
            return {
                let total = try DownloadBench.peerRun(origin, client) { $0.readableBytes }
                return try DownloadBench.output(total, origin)
            }
        }),
    BenchCase(
        "download-throughput-workers",
        summary:
            "2,000 distinct 100 KB URLs via ImageDownloader.downloadData, called by 6 workers as the peer does, vs raw AsyncHTTPClient, 6 workers",
        setup: { context in
            let origin = try DownloadBench.origin(context)
            var config = ImageDownloaderConfig()
            config.maxConcurrentDownloads = DownloadBench.concurrency
            let downloader = ImageDownloader(config: config)
            return {
                let total = try DownloadBench.workers(origin) { try await downloader.downloadData(with: $0).count }
                return try DownloadBench.output(total, origin)
            }
        },
        swiftPeer: { context in
            let origin = try DownloadBench.origin(context)
            let client = DownloadBench.peerClient()
            return {
                let total = try DownloadBench.peerRun(origin, client) { $0.readableBytes }
                return try DownloadBench.output(total, origin)
            }
        }),
    BenchCase(
        "download-decode-throughput",
        summary:
            "2,000 distinct 100 KB JPEG URLs via ImageDownloader.loadImage (download + decode, 6 concurrent) vs raw AsyncHTTPClient + ImageCodersManager.shared.decode, 6 workers",
        setup: { context in
            let origin = try DownloadBench.origin(context)
            var config = ImageDownloaderConfig()
            config.maxConcurrentDownloads = DownloadBench.concurrency
            let downloader = ImageDownloader(config: config)
            return {
                let total = try CacheBench.wait {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for url in origin.urls {
                            group.addTask { try await downloader.loadImage(with: url).data?.count ?? 0 }
                        }
                        return try await group.reduce(0, +)
                    }
                }
                return try DownloadBench.output(total, origin)
            }
        },
        swiftPeer: { context in
            let origin = try DownloadBench.origin(context)
            let client = DownloadBench.peerClient()
            return {
                let total = try DownloadBench.peerRun(origin, client, consume: DownloadBench.decodedBytes)
                return try DownloadBench.output(total, origin)
            }
        }),
]

enum DownloadBench {
    static let concurrency = 6
    static let count = 2_000

    struct Origin: Sendable {
        let server: TestOrigin
        let urls: [URL]
        let bodySize: Int
    }

    /// An origin serving `cache.jpg` (~100 KB) at `count` distinct paths. It lives as long as
    /// the process, as the case's state does.
    static func origin(_ context: BenchContext, count: Int = count) throws -> Origin {
        let body = try context.input("cache.jpg")
        let server = try CacheBench.wait { try await TestOrigin.start() }
        let urls = (0..<count).map { index -> URL in
            let path = "/images/\(index).jpg"
            server.register(path: path, body: body, contentType: "image/jpeg")
            return server.url(path)
        }
        return Origin(server: server, urls: urls, bodySize: body.count)
    }

    /// The peer's client: AsyncHTTPClient's defaults, with a pool as wide as the concurrency.
    static func peerClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Six workers take the next URL until none is left; each collects the body and hands it
    /// to `consume`.
    static func peerRun(
        _ origin: Origin, _ client: HTTPClient, consume: @escaping @Sendable (ByteBuffer) throws -> Int
    ) throws -> Int {
        try workers(origin) { url in
            let request = HTTPClientRequest(url: url.absoluteString)
            let response = try await client.execute(request, timeout: .seconds(30))
            guard response.status == .ok else { throw BenchError("status \(response.status)") }
            return try consume(try await response.body.collect(upTo: 16 << 20))
        }
    }

    /// Six workers take the next URL until none is left and sum what `fetch` returns.
    static func workers(_ origin: Origin, fetch: @escaping @Sendable (URL) async throws -> Int) throws -> Int {
        try CacheBench.wait {
            let next = NextIndex()
            return try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        var total = 0
                        while true {
                            let index = next.take()
                            guard index < origin.urls.count else { return total }
                            total += try await fetch(origin.urls[index])
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
        }
    }

    /// The peer's decode: the body's size if it decodes to an image.
    @Sendable static func decodedBytes(_ buffer: ByteBuffer) throws -> Int {
        let image = try ImageCodersManager.shared.decode(Data(buffer.readableBytesView), options: ImageDecodeOptions())
        return image.width > 0 ? buffer.readableBytes : 0
    }

    static func output(_ total: Int, _ origin: Origin) throws -> RunOutput {
        guard total == origin.bodySize * origin.urls.count else {
            throw BenchError("received \(total) bytes, expected \(origin.bodySize * origin.urls.count)")
        }
        return RunOutput(checksum: total, shape: "\(origin.urls.count)x1x1")
    }
}

/// The workers' shared cursor over the URLs.
final class NextIndex: Sendable {
    private let value = Atomic<Int>(0)
    func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}
