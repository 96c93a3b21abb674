import Foundation
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone

// The code of Sources/WebImage/WebImage.docc/Caching.md, kept compiling and working.
// Article and test are kept in sync by hand: change one, change the other. Only the cache
// directory (a temporary one) differs from the article.
@Suite("DocC snippets: Caching")
struct CachingSnippetTests {
    @Test("A configured cache: store, a memory hit, remove")
    func cacheSnippet() async throws {
        let directory = temporaryURL("docc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = try Fixtures.data("png/pillow_rgba8.png")
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
        let key = "https://example.com/a.png"

        var config = ImageCacheConfig()
        config.maxDiskAge = 3 * 24 * 60 * 60  // three days
        config.maxDiskSize = 200 * 1024 * 1024  // trimmed oldest-first to half when exceeded
        let cache = try ImageCache(namespace: "thumbnails", directory: directory, config: config)
        try await cache.store(image, data: data, forKey: key)  // memory + disk
        let hit = try await cache.queryImage(forKey: key)  // memory first, then disk, off your thread
        print(hit.cacheType)  // .memory, .disk or .none
        #expect(hit.cacheType == .memory)
        #expect(await cache.containsImage(forKey: key) != .none)
        await cache.removeImage(forKey: key)
        #expect(await cache.containsImage(forKey: key) == .none)
    }

    @Test("Keys: SDWebImage's thumbnail and transformer key formats")
    func keySnippet() {
        let key = "https://example.com/a.png"
        let thumbnailKey = CacheKeys.thumbnailed(
            key, size: PixelSize(width: 100, height: 100), preserveAspectRatio: true)
        let transformedKey = CacheKeys.transformed(key, transformerKey: "SDImageFlippingTransformer(1,0)")
        #expect(thumbnailKey == "https://example.com/a-Thumbnail({100.000000,100.000000},1).png")
        #expect(transformedKey == "https://example.com/a-SDImageFlippingTransformer(1,0).png")
    }
}
