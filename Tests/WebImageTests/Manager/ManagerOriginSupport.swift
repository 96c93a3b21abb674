import Foundation
import WebImageTestOrigin

@testable import WebImage

/// A manager over the real ``ImageDownloader`` and a real ``ImageCache`` in a temporary
/// directory, loading from a fresh ``TestOrigin``.
struct ManagerOriginFixture {
    let origin: TestOrigin
    let downloader: ImageDownloader
    let cache: ImageCache
    let manager: ImageManager

    /// Runs `body` with a fresh origin and downloader (``DownloaderTestSupport/withOrigin(config:_:)``),
    /// a cache and a manager; drains the cache's disk writes before the downloader and the origin
    /// shut down, and removes the cache directory afterwards, also when `body` throws.
    static func run<T>(
        config: ImageDownloaderConfig = .default, _ body: (ManagerOriginFixture) async throws -> T
    ) async throws -> T {
        let directory = temporaryURL("webimage-manager")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Made first: if it throws, there is nothing to shut down yet.
        let cache = try ImageCache(directory: directory)
        return try await DownloaderTestSupport.withOrigin(config: config) { origin, downloader in
            let fixture = ManagerOriginFixture(
                origin: origin, downloader: downloader, cache: cache,
                manager: ImageManager(cache: cache, loader: downloader))
            return try await shuttingDown(fixture, with: { await Self.drainDiskWrites(of: $0.cache) }, body)
        }
    }

    /// Waits for the disk writes already queued (the stores loads started without waiting), so
    /// that none lands after the directory is removed and makes the cache recreate it.
    private static func drainDiskWrites(of cache: ImageCache) async {
        await cache.io.drain()
    }

    static let pngPath = DownloaderTestSupport.pngPath
    static let jpegPath = DownloaderTestSupport.jpegPath
}
