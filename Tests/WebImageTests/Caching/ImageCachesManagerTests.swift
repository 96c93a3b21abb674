import Foundation
import Testing

@testable import WebImage

@Suite("ImageCachesManager")
struct ImageCachesManagerTests {
    /// Three caches over fakes; the last is the highest priority.
    private func manager() -> (ImageCachesManager, [(ImageCache, FakeMemoryCache, FakeDiskCache)]) {
        let parts = (0..<3).map { _ in CacheFixtures.makeCache() }
        return (ImageCachesManager(caches: parts.map(\.0)), parts)
    }

    @Test("the default policies are SDWebImage's")
    func defaults() {
        let manager = ImageCachesManager()
        #expect(manager.queryOperationPolicy == .serial)
        #expect(manager.storeOperationPolicy == .highestOnly)
        #expect(manager.removeOperationPolicy == .concurrent)
        #expect(manager.containsOperationPolicy == .serial)
        #expect(manager.clearOperationPolicy == .concurrent)
    }

    @Test("store goes to the highest-priority cache (the last added) by default")
    func storeHighestOnly() async throws {
        let (manager, parts) = manager()
        try await manager.store(CacheFixtures.opaqueImage(), forKey: "k", cacheType: .memory)
        #expect(parts.map { $0.1.count } == [0, 0, 1])
        manager.storeOperationPolicy = .lowestOnly
        try await manager.store(CacheFixtures.opaqueImage(), forKey: "l", cacheType: .memory)
        #expect(parts[0].1.keys == ["l"])
        manager.storeOperationPolicy = .concurrent
        try await manager.store(CacheFixtures.opaqueImage(), forKey: "c", cacheType: .memory)
        #expect(parts.allSatisfy { $0.1.keys.contains("c") })
        manager.storeOperationPolicy = .serial
        try await manager.store(CacheFixtures.opaqueImage(), forKey: "s", cacheType: .memory)
        #expect(parts.allSatisfy { $0.1.keys.contains("s") })
    }

    @Test("a serial query asks the highest priority first and stops at the first hit")
    func serialQuery() async throws {
        let (manager, parts) = manager()
        try parts[0].0.storeImageDataToDisk(try CacheFixtures.pngData(width: 3, height: 3), forKey: "k")
        try parts[1].0.storeImageDataToDisk(try CacheFixtures.pngData(width: 5, height: 5), forKey: "k")
        let result = try await manager.queryImage(forKey: "k")
        #expect(result.image?.width == 5)
        #expect(parts.map { $0.2.reads } == [0, 1, 1])
        #expect(try await manager.queryImage(forKey: "missing").cacheType == ImageCacheType.none)
    }

    @Test("highestOnly and lowestOnly queries look in one cache; concurrent finds any hit")
    func queryPolicies() async throws {
        let (manager, parts) = manager()
        try parts[0].0.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "k")
        manager.queryOperationPolicy = .highestOnly
        #expect(try await manager.queryImage(forKey: "k").image == nil)
        manager.queryOperationPolicy = .lowestOnly
        #expect(try await manager.queryImage(forKey: "k").image != nil)
        manager.queryOperationPolicy = .concurrent
        #expect(try await manager.queryImage(forKey: "k").cacheType == .memory)
        #expect(try await manager.queryImage(forKey: "none").image == nil)
    }

    @Test("remove and clear reach every cache by default")
    func removeAndClear() async throws {
        let (manager, parts) = manager()
        for part in parts {
            try await part.0.store(CacheFixtures.opaqueImage(), data: Data([1]), forKey: "k")
            try await part.0.store(CacheFixtures.opaqueImage(), data: Data([1]), forKey: "j")
        }
        await manager.removeImage(forKey: "k")
        #expect(parts.allSatisfy { !$0.1.keys.contains("k") && !$0.2.containsData(forKey: "k") })
        await manager.clear(cacheType: .memory)
        #expect(parts.allSatisfy { $0.1.count == 0 && $0.2.totalCount == 1 })
        manager.clearOperationPolicy = .highestOnly
        await manager.clear(cacheType: .disk)
        #expect(parts.map { $0.2.totalCount } == [1, 1, 0])
    }

    @Test("contains follows containsOperationPolicy, not the clear policy")
    func containsPolicy() async throws {
        let (manager, parts) = manager()
        try parts[0].0.storeImageDataToDisk(Data([1]), forKey: "k")
        #expect(await manager.containsImage(forKey: "k") == .disk)
        manager.clearOperationPolicy = .highestOnly
        #expect(await manager.containsImage(forKey: "k") == .disk)
        manager.containsOperationPolicy = .highestOnly
        #expect(await manager.containsImage(forKey: "k") == ImageCacheType.none)
        manager.containsOperationPolicy = .concurrent
        #expect(await manager.containsImage(forKey: "k") == .disk)
    }

    @Test("a concurrent contains check answers memory when another cache has the image on disk, every time")
    func concurrentContainsPrefersMemory() async throws {
        let (manager, parts) = manager()
        manager.containsOperationPolicy = .concurrent
        // The lowest-priority cache holds it in memory, the highest on disk only.
        try await parts[0].0.store(CacheFixtures.opaqueImage(), forKey: "k", cacheType: .memory)
        try parts[2].0.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "k")
        var answers: [ImageCacheType: Int] = [:]
        for _ in 0..<1000 { answers[await manager.containsImage(forKey: "k"), default: 0] += 1 }
        #expect(answers == [.memory: 1000])
    }

    @Test("a concurrent query returns a memory hit over another cache's disk hit, every time")
    func concurrentQueryPrefersMemory() async throws {
        let (manager, parts) = manager()
        manager.queryOperationPolicy = .concurrent
        try await parts[0].0.store(CacheFixtures.opaqueImage(width: 3, height: 3), forKey: "k", cacheType: .memory)
        try parts[2].0.storeImageDataToDisk(try CacheFixtures.pngData(width: 5, height: 5), forKey: "k")
        var widths: [Int: Int] = [:]
        for _ in 0..<1000 {
            let result = try await manager.queryImage(forKey: "k")
            #expect(result.cacheType == .memory)
            widths[result.image?.width ?? 0, default: 0] += 1
        }
        #expect(widths == [3: 1000])
        // The disk was never read, so the disk hit never reached its cache's memory.
        #expect(parts[2].2.reads == 0)
    }

    @Test("among concurrent hits of one tier, the highest-priority cache's wins, every time")
    func concurrentQueryPrefersPriorityWithinATier() async throws {
        let (manager, parts) = manager()
        manager.queryOperationPolicy = .concurrent
        manager.containsOperationPolicy = .concurrent
        try parts[0].0.storeImageDataToDisk(try CacheFixtures.pngData(width: 3, height: 3), forKey: "k")
        try parts[1].0.storeImageDataToDisk(try CacheFixtures.pngData(width: 5, height: 5), forKey: "k")
        var widths: [Int: Int] = [:]
        for _ in 0..<1000 {
            let result = try await manager.queryImage(forKey: "k", cacheType: .disk)
            widths[result.image?.width ?? 0, default: 0] += 1
        }
        #expect(widths == [5: 1000])
        try await parts[0].0.store(CacheFixtures.opaqueImage(width: 3, height: 3), forKey: "m", cacheType: .memory)
        try await parts[2].0.store(CacheFixtures.opaqueImage(width: 7, height: 7), forKey: "m", cacheType: .memory)
        widths = [:]
        for _ in 0..<1000 {
            widths[try await manager.queryImage(forKey: "m").image?.width ?? 0, default: 0] += 1
        }
        #expect(widths == [7: 1000])
    }

    @Test("addCache raises priority, removeCache drops by identity, one cache is forwarded")
    func addRemove() async throws {
        let manager = ImageCachesManager()
        #expect(try await manager.queryImage(forKey: "k").image == nil)
        let (low, _, _) = CacheFixtures.makeCache()
        let (high, highMemory, _) = CacheFixtures.makeCache()
        manager.addCache(low)
        manager.addCache(high)
        #expect(manager.caches.count == 2)
        try await manager.store(CacheFixtures.opaqueImage(), forKey: "k", cacheType: .memory)
        #expect(highMemory.count == 1)
        manager.removeCache(high)
        #expect(manager.caches.count == 1)
        #expect(manager.caches.first as? ImageCache === low)
        try await manager.store(CacheFixtures.opaqueImage(), forKey: "k", cacheType: .memory)
        #expect(try await manager.queryImage(forKey: "k").cacheType == .memory)
    }

    @Test("a store failure in one cache is thrown after the others were written")
    func storeFailure() async throws {
        let (manager, parts) = manager()
        manager.storeOperationPolicy = .serial
        parts[2].2.state.withLock { $0.failWrites = true }
        await #expect(throws: WebImageError.self) {
            try await manager.store(nil, data: Data([1]), forKey: "k", cacheType: .disk)
        }
        #expect(parts.map { $0.2.totalCount } == [1, 1, 0])
    }
}
