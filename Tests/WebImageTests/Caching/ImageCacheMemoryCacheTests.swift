import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache over the real MemoryCache")
struct ImageCacheMemoryCacheTests {
    private func cache(config: ImageCacheConfig) -> (ImageCache, MemoryCache, FakeDiskCache) {
        let memory = MemoryCache(config: config)
        let disk = FakeDiskCache()
        return (ImageCache(config: config, memoryCache: memory, diskCache: disk), memory, disk)
    }

    @Test("stores charge the pixels, the key and the entry's bookkeeping; the least recently used goes first")
    func costAndEviction() async throws {
        var config = ImageCacheConfig()
        let image = CacheFixtures.opaqueImage()  // 8×6 RGBA = 192 bytes
        let entryCost = MemoryCache.cost(of: image, forKey: "a")
        #expect(entryCost == image.memoryCost + 1 + MemoryCache.entryOverhead)
        config.maxMemoryCost = entryCost * 2
        config.maxMemoryEntryFraction = 1
        let (cache, memory, _) = cache(config: config)
        try await cache.store(image, forKey: "a", cacheType: .memory)
        try await cache.store(image, forKey: "b", cacheType: .memory)
        _ = try await cache.queryImage(forKey: "a")
        try await cache.store(image, forKey: "c", cacheType: .memory)
        #expect(memory.totalCost == entryCost * 2)
        #expect(cache.imageFromMemoryCache(forKey: "a") != nil)
        #expect(cache.imageFromMemoryCache(forKey: "b") == nil)
        #expect(cache.imageFromMemoryCache(forKey: "c") != nil)
    }

    @Test("a disk hit too large for memory is still returned, just not kept")
    func oversizedDiskHit() async throws {
        var config = ImageCacheConfig()
        config.maxMemoryCost = 100
        let (cache, memory, disk) = cache(config: config)
        try disk.setData(try CacheFixtures.pngData(), forKey: "k", metadata: nil)
        let result = try await cache.queryImage(forKey: "k")
        #expect(result.cacheType == .disk && result.image != nil)
        #expect(memory.count == 0)
    }
}
