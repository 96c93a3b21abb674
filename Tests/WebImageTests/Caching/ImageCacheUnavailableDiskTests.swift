import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache without a usable disk directory")
struct ImageCacheUnavailableDiskTests {
    @Test("memory keeps working, reads miss, writes throw diskCacheFailure with the reason")
    func memoryOnlyFallback() async throws {
        let disk = UnavailableDiskCache(directory: URL(fileURLWithPath: "/nonexistent/cache"), reason: "read-only")
        let cache = ImageCache(memoryCache: FakeMemoryCache(), diskCache: disk)
        await #expect {
            try await cache.store(CacheFixtures.opaqueImage(), data: Data([1]), forKey: "k")
        } throws: { error in
            guard let error = error as? WebImageError, error.code == .diskCacheFailure else { return false }
            let reason = error.message
            return reason.contains("read-only") && reason.contains("/nonexistent/cache")
        }
        #expect(try await cache.queryImage(forKey: "k").cacheType == .memory)
        #expect(try await cache.queryImage(forKey: "k", cacheType: .disk).cacheType == ImageCacheType.none)
        #expect(await cache.containsImage(forKey: "k", cacheType: .disk) == ImageCacheType.none)
        try await cache.clearDisk()
        try await cache.removeExpiredData()
        #expect(await cache.totalDiskCount() == 0)
        #expect(await cache.totalDiskSize() == 0)
    }
}
