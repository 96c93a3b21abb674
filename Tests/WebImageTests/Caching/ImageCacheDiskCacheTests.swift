import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache over the real DiskCache")
struct ImageCacheDiskCacheTests {
    private func directory() -> URL {
        temporaryURL("imagecache-tests")
    }

    @Test("store, clear memory, query: a disk hit with the same bytes and metadata")
    func roundTrip() async throws {
        let directory = directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try ImageCache(directory: directory)
        let png = try CacheFixtures.pngData()
        try await cache.store(
            CacheFixtures.opaqueImage(), data: png, metadata: DiskCacheMetadata(etag: "e"), forKey: "https://x/a.png")
        cache.clearMemory()
        let result = try await cache.queryImage(forKey: "https://x/a.png")
        #expect(result.cacheType == .disk && result.data == png && result.metadata?.etag == "e")
        #expect(await cache.totalDiskCount() == 1)
        #expect(cache.cachePath(forKey: "https://x/a.png")?.hasPrefix(directory.standardizedFileURL.path) == true)
    }

    @Test("valid bytes this request's limits refuse are a miss, but the entry stays for other requests")
    func limitRefusalKeepsEntry() async throws {
        let directory = directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try ImageCache(directory: directory)
        let jpeg = try Fixtures.data("jpeg/photo_800x600.jpg")
        try cache.storeImageDataToDisk(jpeg, forKey: "https://x/photo.jpg")
        var context = WebImageContext()
        var strict = ImageDecodeOptions()
        strict.maxPixelCount = 1000
        context.imageDecodeOptions = strict
        let refused = try await cache.queryImage(forKey: "https://x/photo.jpg", context: context)
        #expect(refused.image == nil)
        #expect(await cache.containsImage(forKey: "https://x/photo.jpg", cacheType: .disk) == .disk)
        let normal = try await cache.queryImage(forKey: "https://x/photo.jpg")
        #expect(normal.cacheType == .disk && normal.image?.width == 800)
    }

    @Test("a corrupted file on disk is a miss and is removed")
    func corruptFile() async throws {
        let directory = directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try ImageCache(directory: directory)
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "k")
        let path = try #require(cache.cachePath(forKey: "k"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 5] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(try await cache.queryImage(forKey: "k").image == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a directory that vanished under the cache gives misses, not crashes")
    func vanishedDirectory() async throws {
        let directory = directory()
        let cache = try ImageCache(directory: directory)
        try cache.storeImageDataToDisk(try CacheFixtures.pngData(), forKey: "k")
        try FileManager.default.removeItem(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await cache.queryImage(forKey: "k").image == nil)
        #expect(await cache.containsImage(forKey: "k") == ImageCacheType.none)
        #expect(await cache.totalDiskCount() == 0)
    }

    @Test("the shared cache falls back to memory only when its directory cannot be made")
    func sharedFallback() async throws {
        let file = directory()
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(throws: WebImageError.self) { try ImageCache(directory: file) }
        let cache = ImageCache.makeShared(directory: file)
        #expect(cache.diskCache is UnavailableDiskCache)
        await #expect(throws: WebImageError.self) {
            try await cache.store(CacheFixtures.opaqueImage(), data: Data([1]), forKey: "k")
        }
        #expect(try await cache.queryImage(forKey: "k").cacheType == .memory)
    }
}
