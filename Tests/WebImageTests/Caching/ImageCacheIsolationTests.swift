import Dispatch
import Foundation
import Testing

@testable import WebImage

/// A serial executor that counts the jobs scheduled on it: a query that hops away and back
/// schedules at least one.
private final class CountingExecutor: SerialExecutor {
    let queue = DispatchQueue(label: "counting-executor")
    let enqueued = Locked(0)

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.withLock { $0 += 1 }
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// An actor on a ``CountingExecutor``, querying from inside its isolation.
private actor Probe {
    let executor = CountingExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The query's result and how many jobs the actor's executor got while it ran.
    func query(_ cache: any ImageCaching, key: String) async throws -> (ImageCacheQueryResult, Int) {
        let before = executor.enqueued.withLock { $0 }
        let result = try await cache.queryImage(forKey: key, options: [], context: nil, cacheType: .all)
        return (result, executor.enqueued.withLock { $0 } - before)
    }
}

@Suite("ImageCache isolation")
struct ImageCacheIsolationTests {
    @Test("a memory hit runs on the caller's actor without a hop, also through the protocol and the manager")
    func memoryHitDoesNotHop() async throws {
        let (cache, _, disk) = CacheFixtures.makeCache()
        cache.storeImageToMemory(CacheFixtures.opaqueImage(), forKey: "hit")
        try disk.setData(try CacheFixtures.pngData(), forKey: "disk", metadata: nil)
        let probe = Probe()
        let manager = ImageCachesManager(caches: [cache])
        for target in [cache as any ImageCaching, manager] {
            let (hit, hops) = try await probe.query(target, key: "hit")
            #expect(hit.cacheType == .memory)
            #expect(hops == 0)
        }
        // Sanity check of the probe: a disk hit does leave the actor and come back.
        let (diskHit, diskHops) = try await probe.query(cache, key: "disk")
        #expect(diskHit.cacheType == .disk)
        #expect(diskHops > 0)
    }
}
