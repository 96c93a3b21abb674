import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache query")
struct ImageCacheQueryTests {
    @Test("a memory hit comes back from memory without touching the disk")
    func memoryHit() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        let image = CacheFixtures.opaqueImage()
        cache.storeImageToMemory(image, forKey: "k")
        let result = try await cache.queryImage(forKey: "k")
        #expect(result.cacheType == .memory)
        #expect(result.image?.bitmap == image.bitmap)
        #expect(result.data == nil)
        #expect(disk.reads == 0)
        #expect(memory.count == 1)
    }

    @Test("a disk hit is decoded, carries data and metadata, and is copied to memory")
    func diskHit() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        let png = try CacheFixtures.pngData()
        let metadata = DiskCacheMetadata(etag: "\"v1\"")
        try cache.storeImageDataToDisk(png, forKey: "a.png", metadata: metadata)
        #expect(memory.count == 0)
        let result = try await cache.queryImage(forKey: "a.png")
        #expect(result.cacheType == .disk)
        #expect(result.image?.width == 8 && result.image?.height == 6)
        #expect(result.data == png)
        #expect(result.metadata?.etag == "\"v1\"")
        #expect(memory.keys == ["a.png"])
        #expect(disk.reads == 1)
    }

    @Test("storeCacheType without memory keeps a disk hit out of memory")
    func diskHitNotCopiedToMemory() async throws {
        let (cache, memory, _) = CacheFixtures.makeCache()
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "k")
        var context = WebImageContext()
        context.storeCacheType = .disk
        let result = try await cache.queryImage(forKey: "k", context: context)
        #expect(result.cacheType == .disk)
        #expect(memory.count == 0)
    }

    @Test("shouldCacheImagesInMemory false keeps disk hits out of memory")
    func memoryDisabled() async throws {
        var config = ImageCacheConfig()
        config.shouldCacheImagesInMemory = false
        let (cache, memory, _) = CacheFixtures.makeCache(config: config)
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "k")
        _ = try await cache.queryImage(forKey: "k")
        #expect(memory.count == 0)
    }

    @Test("empty keys and cacheType .none miss without looking anywhere")
    func emptyKeyAndNone() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        cache.storeImageToMemory(CacheFixtures.opaqueImage(), forKey: "k")
        #expect(try await cache.queryImage(forKey: "").image == nil)
        #expect(try await cache.queryImage(forKey: "k", cacheType: .none).cacheType == .none)
        #expect(disk.reads == 0)
        #expect(memory.state.withLock { $0.lookups } == 0)
    }

    @Test("cacheType .disk skips memory, .memory skips disk")
    func cacheTypeRouting() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        cache.storeImageToMemory(CacheFixtures.opaqueImage(width: 3, height: 3), forKey: "k")
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "k")
        let fromDisk = try await cache.queryImage(forKey: "k", cacheType: .disk)
        #expect(fromDisk.cacheType == .disk && fromDisk.image?.width == 8)
        cache.clearMemory()
        let memoryOnly = try await cache.queryImage(forKey: "k", cacheType: .memory)
        #expect(memoryOnly.cacheType == .none && memoryOnly.image == nil)
        #expect(disk.reads == 1)
    }

    @Test("decodeFirstFrameOnly turns an animated memory hit into a new still image")
    func firstFrameOnly() async throws {
        let (cache, _, _) = CacheFixtures.makeCache()
        let animated = CacheFixtures.animatedImage()
        cache.storeImageToMemory(animated, forKey: "anim")
        let still = try await cache.queryImage(forKey: "anim", options: .decodeFirstFrameOnly)
        #expect(still.image?.frameCount == 1)
        #expect(still.image?.animation == nil)
        #expect(still.image?.bitmap == animated.bitmap)
        // The cached animation itself is untouched.
        #expect(cache.imageFromMemoryCache(forKey: "anim")?.frameCount == 3)
    }

    @Test("queryMemoryData reads the bytes from disk on a memory hit, unless the query is memory-only")
    func queryMemoryData() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        let png = try CacheFixtures.pngData()
        try await cache.store(CacheFixtures.opaqueImage(), data: png, forKey: "k")
        let result = try await cache.queryImage(forKey: "k", options: .queryMemoryData)
        #expect(result.cacheType == .memory)
        #expect(result.data == png)
        let memoryOnly = try await cache.queryImage(forKey: "k", options: .queryMemoryData, cacheType: .memory)
        #expect(memoryOnly.data == nil)
        #expect(disk.reads == 1)
    }

    @Test("corrupt bytes on disk are a miss and the entry is removed")
    func corruptEntry() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        var png = try CacheFixtures.pngData()
        png.replaceSubrange(20..<png.count, with: Data(repeating: 0xA5, count: png.count - 20))
        try cache.storeImageDataToDisk(png, forKey: "bad")
        try cache.storeImageDataToDisk(Data("not an image".utf8), forKey: "text")
        try cache.storeImageDataToDisk(png.prefix(12), forKey: "truncated")
        for key in ["bad", "text", "truncated"] {
            let result = try await cache.queryImage(forKey: key)
            #expect(result.image == nil && result.cacheType == .none, "\(key)")
            // The removal is queued on the file threads after the miss is answered.
            await cache.io.drain()
            #expect(!disk.containsData(forKey: key), "\(key)")
        }
        #expect(memory.count == 0)
    }

    @Test("the additional path is read on a disk miss, and a bad file there is left alone")
    func additionalPath() async throws {
        let (cache, _, _) = CacheFixtures.makeCache()
        let directory = try makeTemporaryDirectory("extra")
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = try CacheFixtures.pngData(width: 5, height: 7)
        try png.write(to: directory.appendingPathComponent("good"))
        try Data("junk".utf8).write(to: directory.appendingPathComponent("junk"))
        cache.additionalCachePathProvider = { key in directory.appendingPathComponent(key).path }

        let hit = try await cache.queryImage(forKey: "good")
        #expect(hit.cacheType == .disk && hit.image?.width == 5 && hit.data == png && hit.metadata == nil)
        #expect(try await cache.queryImage(forKey: "junk").image == nil)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("junk").path))
        #expect(try await cache.queryImage(forKey: "missing").image == nil)
        #expect(try await cache.queryImage(forKey: "../../etc/passwd\0").image == nil)
    }

    @Test("hostile keys are ordinary misses and round-trip through the fake disk")
    func hostileKeys() async throws {
        let (cache, _, _) = CacheFixtures.makeCache()
        let png = try CacheFixtures.pngData()
        for key in ["../../../etc/passwd", "a\0b", String(repeating: "x", count: 10_000), "/", "é漢字🙂"] {
            #expect(try await cache.queryImage(forKey: key).image == nil)
            try await cache.store(nil, data: png, forKey: key)
            cache.clearMemory()
            #expect(try await cache.queryImage(forKey: key).cacheType == .disk)
        }
    }

    @Test("a decode scale from @2x in the key reaches the decoded image")
    func scaleFromKey() async throws {
        let (cache, _, _) = CacheFixtures.makeCache()
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "icon@2x.png")
        #expect(try await cache.queryImage(forKey: "icon@2x.png").image?.scale == 2)
    }
}
