import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache store")
struct ImageCacheStoreTests {
    @Test("store with image and data keeps the image in memory and the exact bytes on disk")
    func storeBoth() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        let image = CacheFixtures.opaqueImage()
        let png = try CacheFixtures.pngData()
        try await cache.store(image, data: png, forKey: "k")
        #expect(memory.state.withLock { $0.images["k"]?.cost } == MemoryCache.cost(of: image, forKey: "k"))
        #expect(disk.storedData(forKey: "k") == png)
    }

    @Test("cacheType routes a store to memory only or disk only")
    func storeRouting() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        let png = try CacheFixtures.pngData()
        try await cache.store(CacheFixtures.opaqueImage(), data: png, forKey: "m", cacheType: .memory)
        try await cache.store(CacheFixtures.opaqueImage(), data: png, forKey: "d", cacheType: .disk)
        try await cache.store(CacheFixtures.opaqueImage(), data: png, forKey: "n", cacheType: .none)
        #expect(memory.keys == ["m"])
        #expect(disk.totalCount == 1 && disk.containsData(forKey: "d"))
    }

    @Test("storeImageDataToDisk writes the disk only")
    func dataToDiskOnly() throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "k")
        #expect(memory.count == 0)
        #expect(disk.containsData(forKey: "k"))
    }

    @Test("shouldCacheImagesInMemory false keeps stores out of memory")
    func memoryDisabled() async throws {
        var config = ImageCacheConfig()
        config.shouldCacheImagesInMemory = false
        let (cache, memory, disk) = CacheFixtures.makeCache(config: config)
        try await cache.store(CacheFixtures.opaqueImage(), forKey: "k")
        #expect(memory.count == 0)
        #expect(disk.totalCount == 1)
    }

    @Test(
        "without data the image is encoded in SDWebImage's format",
        arguments: [
            ("alpha", ImageFormat.png), ("opaque", .jpeg), ("animated", .gif), ("webp-tagged", .webp),
        ])
    func formatRule(kind: String, expected: ImageFormat) async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        var image: Image
        switch kind {
        case "alpha": image = CacheFixtures.alphaImage()
        case "animated": image = CacheFixtures.animatedImage()
        case "webp-tagged":
            image = CacheFixtures.opaqueImage()
            image.format = .webp
        default: image = CacheFixtures.opaqueImage()
        }
        let coder = CountingCoder()
        var context = WebImageContext()
        context.imageCoder = coder
        try await cache.store(image, forKey: "k", context: context, cacheType: .disk)
        #expect(coder.lastEncodedFormat == expected)
        let bytes = try #require(disk.storedData(forKey: "k"))
        #expect(ImageFormat(detecting: bytes) == expected)
        let decoded = try ImageCodersManager.shared.decode(bytes, options: .init())
        #expect(decoded.width == image.width && decoded.frameCount == image.frameCount)
    }

    @Test("the context's encode options are used when encoding")
    func encodeOptions() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        var context = WebImageContext()
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 4, height: 4)
        context.imageEncodeOptions = options
        try await cache.store(CacheFixtures.opaqueImage(), forKey: "k", context: context, cacheType: .disk)
        let bytes = try #require(disk.storedData(forKey: "k"))
        #expect(try ImageCodersManager.shared.imageInfo(for: bytes).width == 4)
    }

    @Test("nothing to store, or an empty key, is a no-op")
    func noOps() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        try await cache.store(nil, forKey: "k")
        try await cache.store(CacheFixtures.opaqueImage(), data: Data([1]), forKey: "")
        try cache.storeImageDataToDisk(Data([1]), forKey: "")
        cache.storeImageToMemory(CacheFixtures.opaqueImage(), forKey: "")
        #expect(memory.count == 0 && disk.totalCount == 0)
    }

    @Test("a failed disk write throws diskCacheFailure and memory still has the image")
    func failingDisk() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache()
        disk.state.withLock { $0.failWrites = true }
        await #expect {
            try await cache.store(CacheFixtures.opaqueImage(), data: Data([1, 2]), forKey: "k")
        } throws: { error in
            guard (error as? WebImageError)?.code == .diskCacheFailure else { return false }
            return true
        }
        #expect(memory.count == 1)
        #expect(throws: WebImageError.self) { try cache.storeImageDataToDisk(Data([1]), forKey: "k") }
    }

    @Test("an image the coder cannot encode throws its typed error and stores nothing on disk")
    func unencodable() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        var image = CacheFixtures.opaqueImage()
        image.format = .pdf  // decode-only: no built-in coder writes PDF
        await #expect(throws: WebImageError.unsupportedFormat(.pdf)) {
            try await cache.store(image, forKey: "k", cacheType: .disk)
        }
        #expect(disk.totalCount == 0)
    }
}
