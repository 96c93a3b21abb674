import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache remove, clear, contains, sizes")
struct ImageCacheMaintenanceTests {
    private func filled() async throws -> (ImageCache, FakeMemoryCache, FakeDiskCache) {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        let png = try CacheFixtures.pngData()
        try await cache.store(CacheFixtures.opaqueImage(), data: png, forKey: "a")
        try await cache.store(CacheFixtures.opaqueImage(), data: png + Data([0]), forKey: "b")
        return (cache, memory, disk)
    }

    @Test("clearing the disk keeps memory")
    func clearDiskKeepsMemory() async throws {
        let (cache, memory, disk) = try await filled()
        try await cache.clearDisk()
        #expect(disk.totalCount == 0)
        #expect(memory.keys == ["a", "b"])
        #expect(try await cache.queryImage(forKey: "a").cacheType == .memory)
    }

    @Test("clearing memory keeps the disk")
    func clearMemoryKeepsDisk() async throws {
        let (cache, memory, disk) = try await filled()
        cache.clearMemory()
        #expect(memory.count == 0)
        #expect(disk.totalCount == 2)
        #expect(try await cache.queryImage(forKey: "a").cacheType == .disk)
    }

    @Test("clear(cacheType:) follows the type")
    func clearByType() async throws {
        let (cache, memory, disk) = try await filled()
        await cache.clear(cacheType: .none)
        #expect(memory.count == 2 && disk.totalCount == 2)
        await cache.clear(cacheType: .all)
        #expect(memory.count == 0 && disk.totalCount == 0)
    }

    @Test("remove from both, or from memory only")
    func remove() async throws {
        let (cache, memory, disk) = try await filled()
        await cache.removeImage(forKey: "a")
        #expect(!memory.keys.contains("a") && !disk.containsData(forKey: "a"))
        await cache.removeImage(forKey: "b", cacheType: .memory)
        #expect(memory.count == 0 && disk.containsData(forKey: "b"))
        await cache.removeImage(forKey: "")
        #expect(disk.totalCount == 1)
    }

    @Test("contains looks in memory, then on disk")
    func contains() async throws {
        let (cache, _, _) = try await filled()
        #expect(await cache.containsImage(forKey: "a") == .memory)
        #expect(await cache.containsImage(forKey: "a", cacheType: .disk) == .disk)
        await cache.removeImage(forKey: "a", cacheType: .memory)
        #expect(await cache.containsImage(forKey: "a") == .disk)
        #expect(await cache.containsImage(forKey: "a", cacheType: .memory) == ImageCacheType.none)
        #expect(await cache.containsImage(forKey: "zzz") == ImageCacheType.none)
        #expect(await cache.containsImage(forKey: "") == ImageCacheType.none)
    }

    @Test("total disk size and count report the disk cache's numbers")
    func sizeAndCount() async throws {
        let (cache, _, _) = try await filled()
        let png = try CacheFixtures.pngData()
        #expect(await cache.totalDiskCount() == 2)
        #expect(await cache.totalDiskSize() == 2 * png.count + 1)
    }

    @Test("removeExpiredData forwards to the disk cache's sweep")
    func sweep() async throws {
        let (cache, memory, disk) = try await filled()
        disk.state.withLock { $0.expired = ["a"] }
        try await cache.removeExpiredData()
        #expect(!disk.containsData(forKey: "a") && disk.containsData(forKey: "b"))
        #expect(memory.count == 2)
    }

    @Test("cachePath comes from the disk cache; an empty key has none")
    func cachePath() {
        let (cache, _, _) = CacheFixtures.makeCache()
        #expect(cache.cachePath(forKey: "abc") == "/fake-disk/3")
        #expect(cache.cachePath(forKey: "") == nil)
    }
}
