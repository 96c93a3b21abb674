import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache callback API")
struct ImageCacheCallbackTests {
    /// Records every completion call.
    final class Calls: Sendable {
        let calls = Locked<[(Image?, Data?, ImageCacheType)]>([])
        var count: Int { calls.withLock { $0.count } }
        var last: (Image?, Data?, ImageCacheType)? { calls.withLock { $0.last } }
        func record(_ image: Image?, _ data: Data?, _ type: ImageCacheType) {
            calls.withLock { $0.append((image, data, type)) }
        }
    }

    @Test("a memory hit completes synchronously and returns no token")
    func memorySync() {
        let (cache, _, _) = CacheFixtures.makeCache()
        cache.storeImageToMemory(CacheFixtures.opaqueImage(), forKey: "k")
        let calls = Calls()
        let token = cache.queryCacheOperation(forKey: "k", completion: calls.record)
        #expect(token == nil)
        #expect(calls.count == 1)
        #expect(calls.last?.2 == .memory)
    }

    @Test("a disk query returns a token and completes later with the image and data")
    func diskAsync() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        let png = try CacheFixtures.pngData()
        try disk.setData(png, forKey: "k", metadata: nil)
        let calls = Calls()
        let token = cache.queryCacheOperation(forKey: "k", completion: calls.record)
        #expect(token != nil)
        #expect(await eventually { calls.count == 1 })
        #expect(calls.count == 1)
        #expect(calls.last?.0?.width == 8 && calls.last?.1 == png && calls.last?.2 == .disk)
    }

    @Test("cancel completes with a miss synchronously, exactly once, and never again")
    func cancelOnce() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache(holdingReads: true)
        try disk.setData(try CacheFixtures.pngData(), forKey: "k", metadata: nil)
        let calls = Calls()
        let token = try #require(cache.queryCacheOperation(forKey: "k", completion: calls.record))
        #expect(await eventually { disk.heldReads == 1 })
        token.cancel()
        #expect(calls.count == 1)
        #expect(calls.last?.0 == nil && calls.last?.1 == nil && calls.last?.2 == ImageCacheType.none)
        #expect(token.isCancelled)
        token.cancel()
        disk.release()
        // Let the abandoned work finish; its result must be dropped.
        #expect(await eventually { cache.diskReads.count == 0 })
        try await Task.sleep(for: .milliseconds(20))
        #expect(calls.count == 1)
    }

    @Test("an empty key completes with a miss at once")
    func emptyKey() {
        let (cache, _, _) = CacheFixtures.makeCache()
        let calls = Calls()
        #expect(cache.queryCacheOperation(forKey: "", completion: calls.record) == nil)
        #expect(calls.count == 1 && calls.last?.2 == ImageCacheType.none)
    }
}
