import Foundation
import Synchronization
import Testing
import WebImageTestOrigin

@testable import WebImage

/// Threads of one process sharing one cache (and its running size) with trimming on.
@Suite struct DiskCacheConcurrencyTests {
    @Test func threadsStoringAndReadingOverlappingKeysSeeOnlyIntactValues() throws {
        var config = ImageCacheConfig()
        config.maxDiskSize = 200 << 10
        try withDiskCache(config: config) { cache in
            let torn = Atomic<Int>(0)
            let hits = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                var rng = SplitMix64(seed: UInt64(thread))
                for _ in 0..<150 {
                    let key = "k\(rng.next() % 16)"
                    if rng.next() % 2 == 0 {
                        let data = CacheTortureValue.value(key: key, generation: rng.next() % 100, maxLength: 16 << 10)
                        try? cache.setData(data, forKey: key, metadata: nil)
                    } else if let data = cache.data(forKey: key) {
                        hits.add(1, ordering: .relaxed)
                        if !CacheTortureValue.isIntact(data, key: key, maxLength: 16 << 10) {
                            torn.add(1, ordering: .relaxed)
                        }
                    }
                }
            }
            #expect(torn.load(ordering: .relaxed) == 0)
            #expect(hits.load(ordering: .relaxed) > 0)
            #expect(diskCacheDirectoryListing(cache.directory).allSatisfy { DiskCacheFileNames.isEntryName($0) })
            // Racing stores can leave the total a little over; the next sweep settles it.
            try cache.removeExpiredData()
            #expect(cache.totalSize <= 200 << 10)
        }
    }
}
