import Foundation
import Testing

@testable import WebImage

/// SDWebImage 4's cache helpers on the manager: exists-in-cache, exists-on-disk, save.
@Suite struct ImageManagerCacheAccessTests {
    typealias F = ManagerFixtures

    @Test func savedImageExistsInMemoryAndOnDiskUnderTheFilteredKey() async throws {
        let (manager, loader, cache, disk) = try F.make()
        manager.cacheKeyFilter = ImageCacheKeyFilter { url in url.lastPathComponent }
        let image = try ImageCodersManager.shared.decode(try F.png(), options: ImageDecodeOptions())
        #expect(await !manager.cachedImageExists(for: F.pngURL))
        try await manager.saveImageToCache(image, for: F.pngURL)
        #expect(await manager.cachedImageExists(for: F.pngURL))
        #expect(await manager.diskImageExists(for: F.pngURL))
        #expect(cache.memoryCache.image(forKey: "rgba.png")?.width == image.width)
        // Stored without data: the cache encoded the image, and it decodes to the same pixels.
        let stored = try #require(disk.storedData(forKey: "rgba.png"))
        let decoded = try ImageCodersManager.shared.decode(stored, options: ImageDecodeOptions())
        #expect(decoded.bitmap.pixels == image.bitmap.pixels)
        // A load now is a memory hit, with no request.
        #expect(try await manager.loadImage(with: F.pngURL).cacheType == .memory)
        #expect(loader.totalRequests == 0)
    }

    @Test func diskExistsIsFalseForAMemoryOnlyImage() async throws {
        let (manager, _, cache, _) = try F.make()
        let image = try ImageCodersManager.shared.decode(try F.png(), options: ImageDecodeOptions())
        try await cache.store(image, forKey: F.pngURL.absoluteString, cacheType: .memory)
        #expect(await manager.cachedImageExists(for: F.pngURL))
        #expect(await !manager.diskImageExists(for: F.pngURL))
    }

    @Test func nilURLOrImageIsNeverCachedNorFound() async throws {
        let (manager, _, _, disk) = try F.make()
        let image = try ImageCodersManager.shared.decode(try F.png(), options: ImageDecodeOptions())
        try await manager.saveImageToCache(image, for: nil)
        try await manager.saveImageToCache(nil, for: F.pngURL)
        #expect(await !manager.cachedImageExists(for: nil))
        #expect(await !manager.diskImageExists(for: nil))
        #expect(await !manager.cachedImageExists(for: F.pngURL))
        #expect(disk.state.withLock { $0.entries.isEmpty })
    }

    @Test func aFailedDiskWriteIsADiskCacheFailure() async throws {
        let (manager, _, _, disk) = try F.make()
        disk.state.withLock { $0.failWrites = true }
        let image = try ImageCodersManager.shared.decode(try F.png(), options: ImageDecodeOptions())
        await #expect(throws: WebImageError.self) { try await manager.saveImageToCache(image, for: F.pngURL) }
        do {
            try await manager.saveImageToCache(image, for: F.pngURL)
        } catch {
            #expect(error.code == WebImageError.diskCacheFailure("").code)
        }
    }
}
