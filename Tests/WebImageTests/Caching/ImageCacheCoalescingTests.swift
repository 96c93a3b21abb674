import Foundation
import Testing

@testable import WebImage

@Suite("ImageCache coalescing and cancellation")
struct ImageCacheCoalescingTests {
    /// Waiters currently attached to in-flight disk work for `key`.
    private func waiters(_ cache: ImageCache, _ key: String) -> Int {
        cache.diskReads.subscriberCount { $0.key == key }
    }

    @Test("50 concurrent disk queries for one key share one read and one decode")
    func fiftyQueriesOneRead() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache(holdingReads: true)
        let png = try CacheFixtures.pngData()
        try disk.setData(png, forKey: "k", metadata: nil)
        let coder = CountingCoder()
        var context = WebImageContext()
        context.imageCoder = coder
        let shared = context
        let results = try await withThrowingTaskGroup(of: ImageCacheQueryResult.self) { group in
            for _ in 0..<50 {
                group.addTask { try await cache.queryImage(forKey: "k", context: shared, cacheType: .disk) }
            }
            #expect(await eventually { waiters(cache, "k") == 50 })
            #expect(waiters(cache, "k") == 50)
            disk.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 50)
        #expect(results.allSatisfy { $0.cacheType == .disk && $0.image?.width == 8 && $0.data == png })
        #expect(disk.reads == 1)
        #expect(coder.decodes == 1)
        #expect(waiters(cache, "k") == 0)
    }

    @Test("queries with different decode options do not share")
    func differentOptionsDoNotShare() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        try disk.setData(try CacheFixtures.pngData(), forKey: "k", metadata: nil)
        let coder = CountingCoder()
        var full = WebImageContext()
        full.imageCoder = coder
        var thumb = full
        thumb.imageThumbnailPixelSize = PixelSize(width: 4, height: 4)
        async let a = cache.queryImage(forKey: "k", context: full, cacheType: .disk)
        async let b = cache.queryImage(forKey: "k", context: thumb, cacheType: .disk)
        let (fullResult, thumbResult) = try await (a, b)
        #expect(fullResult.image?.width == 8)
        #expect(thumbResult.image?.width == 4)
        #expect(coder.decodes == 2)
    }

    @Test("a cancelled waiter gets .cancelled while the others still get the image")
    func cancelOneWaiter() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache(holdingReads: true)
        try disk.setData(try CacheFixtures.pngData(), forKey: "k", metadata: nil)
        let first = Task { try await cache.queryImage(forKey: "k", cacheType: .disk) }
        let second = Task { try await cache.queryImage(forKey: "k", cacheType: .disk) }
        #expect(await eventually { waiters(cache, "k") == 2 })
        first.cancel()
        await #expect(throws: WebImageError.cancelled) { try await first.value }
        #expect(waiters(cache, "k") == 1)
        disk.release()
        let result = try await second.value
        #expect(result.cacheType == .disk && result.image != nil)
        #expect(disk.reads == 1)
    }

    @Test("when the last waiter leaves, the work stops before decoding")
    func lastWaiterLeaves() async throws {
        let (cache, memory, disk) = CacheFixtures.makeCache(holdingReads: true)
        try disk.setData(try CacheFixtures.pngData(), forKey: "k", metadata: nil)
        let coder = CountingCoder()
        var context = WebImageContext()
        context.imageCoder = coder
        let shared = context
        let only = Task { try await cache.queryImage(forKey: "k", context: shared, cacheType: .disk) }
        #expect(await eventually { disk.heldReads == 1 })
        only.cancel()
        await #expect(throws: WebImageError.cancelled) { try await only.value }
        #expect(cache.diskReads.count == 0)
        disk.release()
        // A fresh query runs its own work and finds the image.
        let again = try await cache.queryImage(forKey: "k", context: shared, cacheType: .disk)
        #expect(again.image != nil)
        #expect(coder.decodes == 1)
        #expect(disk.reads == 2)
        #expect(memory.count == 1)
    }

    @Test("a task cancelled before it queries the disk gets .cancelled and reads nothing")
    func cancelledBeforeQuery() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        try disk.setData(try CacheFixtures.pngData(), forKey: "k", metadata: nil)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cache.queryImage(forKey: "k")
        }
        await #expect(throws: WebImageError.cancelled) { try await task.value }
        #expect(disk.reads == 0)
    }

    @Test("a query blocked on disk does not block the caller: memory hits still complete")
    func blockedDiskDoesNotBlock() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache(holdingReads: true)
        try disk.setData(try CacheFixtures.pngData(), forKey: "slow", metadata: nil)
        cache.storeImageToMemory(CacheFixtures.opaqueImage(width: 2, height: 2), forKey: "fast")
        // Several stuck disk queries, more than the cooperative pool has threads.
        let stuck = (0..<8).map { index in
            Task {
                try await cache.queryImage(
                    forKey: "slow", options: index.isMultiple(of: 2) ? [] : .scaleDownLargeImages)
            }
        }
        #expect(await eventually { disk.heldReads >= 2 })
        let hit = try await cache.queryImage(forKey: "fast")
        #expect(hit.cacheType == .memory && hit.image?.width == 2)
        let done = Locked(false)
        let token = cache.queryCacheOperation(forKey: "fast") { _, _, _ in done.withLock { $0 = true } }
        #expect(token == nil)
        #expect(done.withLock { $0 })
        disk.release()
        for task in stuck {
            #expect(try await task.value.image != nil)
        }
    }
}
