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

    /// Runs `body` with a fresh origin, downloader, cache and manager; shuts the downloader and
    /// the origin down and removes the cache directory afterwards, also when `body` throws.
    static func run<T>(
        config: ImageDownloaderConfig = .default, _ body: (ManagerOriginFixture) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("webimage-manager-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Made first: if it throws, there is nothing to shut down yet.
        let cache = try ImageCache(directory: directory)
        let origin = try await TestOrigin.start(fixturesDirectory: Fixtures.directory)
        let downloader = ImageDownloader(config: config)
        do {
            let fixture = ManagerOriginFixture(
                origin: origin, downloader: downloader, cache: cache,
                manager: ImageManager(cache: cache, loader: downloader))
            let result = try await body(fixture)
            await Self.drainDiskWrites(of: cache)
            await downloader.shutdown()
            try await origin.shutdown()
            return result
        } catch {
            await Self.drainDiskWrites(of: cache)
            await downloader.shutdown()
            try? await origin.shutdown()
            throw error
        }
    }

    /// Waits for the disk writes already queued (the stores loads started without waiting), so
    /// that none lands after the directory is removed and makes the cache recreate it.
    private static func drainDiskWrites(of cache: ImageCache) async {
        await cache.io.drain()
    }

    static let pngPath = "/fixtures/png/rgb8.png"
    static let jpegPath = "/fixtures/jpeg/photo_800x600.jpg"
}
