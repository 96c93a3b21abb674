import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache thumbnail keys")
struct ImageCacheThumbnailTests {
    private let size = PixelSize(width: 4, height: 4)

    private func thumbnailContext(preserve: Bool = true) -> WebImageContext {
        var context = WebImageContext()
        context.imageThumbnailPixelSize = size
        context.imagePreserveAspectRatio = preserve
        return context
    }

    @Test("a thumbnail decoded from full-size bytes goes to memory under the thumbnail key only")
    func thumbnailKeyInMemory() async throws {
        let (cache, memory, _) = CacheFixtures.makeCache()
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "http://x/a.png")
        let result = try await cache.queryImage(forKey: "http://x/a.png", context: thumbnailContext())
        #expect(result.cacheType == .disk)
        #expect(result.image?.isThumbnail == true && result.image?.width == 4)
        #expect(result.data == nil)
        let thumbnailKey = CacheKeys.thumbnailed("http://x/a.png", size: size, preserveAspectRatio: true)
        #expect(memory.keys == [thumbnailKey])
        #expect(cache.imageFromMemoryCache(forKey: "http://x/a.png") == nil)
    }

    @Test("the next thumbnail query is a memory hit; a full query still decodes full size")
    func thumbnailThenFull() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "a.png")
        _ = try await cache.queryImage(forKey: "a.png", context: thumbnailContext())
        let again = try await cache.queryImage(forKey: "a.png", context: thumbnailContext())
        #expect(again.cacheType == .memory && again.image?.width == 4)
        let full = try await cache.queryImage(forKey: "a.png")
        #expect(full.cacheType == .disk && full.image?.width == 8 && full.image?.isThumbnail == false)
        #expect(disk.reads == 2)
    }

    @Test("a query with the thumbnail key itself is not keyed twice")
    func thumbnailKeyQuery() async throws {
        let (cache, memory, _) = CacheFixtures.makeCache()
        let thumbnailKey = CacheKeys.thumbnailed("a.png", size: size, preserveAspectRatio: false)
        #expect(ImageCache.memoryKey(forKey: thumbnailKey, context: thumbnailContext(preserve: false)) == thumbnailKey)
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: thumbnailKey)
        let result = try await cache.queryImage(forKey: thumbnailKey, context: thumbnailContext(preserve: false))
        #expect(result.image?.width == 4 && result.image?.height == 4)
        #expect(memory.keys == [thumbnailKey])
    }
}
