import Foundation
import Testing

@testable import WebImage

/// How a load's result reaches the disk: once, with the right bytes, and never at the load's cost.
@Suite struct ImageManagerDiskStoreTests {
    typealias F = ManagerFixtures

    @Test func aDownloadedImageIsWrittenToDiskOnceWithItsOwnBytes() async throws {
        let (manager, _, cache, disk) = try F.make()
        let result = try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache)
        #expect(result.cacheType == .none)
        #expect(disk.state.withLock { $0.writes } == 1)
        #expect(disk.storedData(forKey: F.jpegURL.absoluteString) == (try F.jpeg()))
        #expect(cache.imageFromMemoryCache(forKey: F.jpegURL.absoluteString)?.width == 800)
    }

    @Test func aFailedDiskWriteNeverFailsTheLoad() async throws {
        let (manager, _, cache, disk) = try F.make()
        disk.state.withLock { $0.failWrites = true }
        let result = try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache)
        #expect(result.image.width == 800 && result.image.height == 600)
        #expect(!disk.containsData(forKey: F.jpegURL.absoluteString))
        #expect(cache.imageFromMemoryCache(forKey: F.jpegURL.absoluteString) != nil)
    }

    @Test func aFailedBackgroundDiskWriteLeavesNoEntryAndTheNextLoadDownloadsAgain() async throws {
        let (manager, loader, cache, disk) = try F.make()
        disk.state.withLock { $0.failWrites = true }
        let result = try await manager.loadImage(with: F.pngURL)
        #expect(result.cacheType == .none)
        // Give the queued write time to fail; the entry must never appear.
        try await Task.sleep(for: .milliseconds(100))
        #expect(!disk.containsData(forKey: F.pngURL.absoluteString))
        await cache.removeImage(forKey: F.pngURL.absoluteString, cacheType: .memory)
        disk.state.withLock { $0.failWrites = false }
        let again = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache)
        #expect(again.cacheType == .none)
        #expect(loader.requestCount(for: F.pngURL) == 2)
        #expect(disk.storedData(forKey: F.pngURL.absoluteString) == (try F.png()))
    }

    @Test func aMemoryOnlyStoreTypeWritesNothingToDisk() async throws {
        let (manager, _, cache, disk) = try F.make()
        var context = WebImageContext()
        context.storeCacheType = .memory
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache, context: context)
        #expect(disk.state.withLock { $0.writes } == 0)
        #expect(cache.imageFromMemoryCache(forKey: F.pngURL.absoluteString) != nil)
    }

    @Test func aDiskOnlyStoreTypeLeavesMemoryEmpty() async throws {
        let (manager, _, cache, disk) = try F.make()
        var context = WebImageContext()
        context.storeCacheType = .disk
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache, context: context)
        #expect(disk.storedData(forKey: F.pngURL.absoluteString) == (try F.png()))
        #expect(cache.imageFromMemoryCache(forKey: F.pngURL.absoluteString) == nil)
    }

    @Test func withoutWaitStoreCacheTheDiskEntryStillArrivesOnce() async throws {
        let (manager, _, _, disk) = try F.make()
        _ = try await manager.loadImage(with: F.pngURL)
        #expect(await eventually { disk.containsData(forKey: F.pngURL.absoluteString) })
        #expect(disk.storedData(forKey: F.pngURL.absoluteString) == (try F.png()))
        #expect(disk.state.withLock { $0.writes } == 1)
    }

    @Test func aSerializerStillGetsTheImageWhenNobodyWaitsForTheStore() async throws {
        let (manager, _, _, disk) = try F.make()
        let sizes = Locked<[Int]>([])
        manager.cacheSerializer = ImageCacheSerializer { image, data, _ in
            sizes.withLock { $0.append(image.width) }
            return (data ?? Data()) + Data("-tail".utf8)
        }
        _ = try await manager.loadImage(with: F.jpegURL)
        #expect(await eventually { disk.containsData(forKey: F.jpegURL.absoluteString) })
        #expect(disk.storedData(forKey: F.jpegURL.absoluteString) == (try F.jpeg()) + Data("-tail".utf8))
        #expect(sizes.withLock { $0 } == [800])
        #expect(disk.state.withLock { $0.writes } == 1)
    }

    @Test func aTransformedResultIsStoredEncodedAndTheOriginalAsItsBytes() async throws {
        let (manager, _, _, disk) = try F.make()
        let transformer = ImageResizingTransformer(size: PixelSize(width: 40, height: 30))
        manager.transformer = transformer
        let result = try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache)
        #expect(result.image.width == 40)
        let key = CacheKeys.transformed(F.jpegURL.absoluteString, transformerKey: transformer.transformerKey)
        #expect(disk.storedData(forKey: F.jpegURL.absoluteString) == (try F.jpeg()))
        let transformed = try #require(disk.storedData(forKey: key))
        #expect(try ImageCodersManager.shared.decode(transformed, options: ImageDecodeOptions()).width == 40)
        #expect(disk.state.withLock { $0.writes } == 2)
    }
}
