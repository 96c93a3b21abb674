import Testing

@testable import WebImage

@Suite("MemoryCache concurrency")
struct MemoryCacheConcurrencyTests {
    typealias F = MemoryCacheFixture

    @Test("concurrent stores, hits, removals and limit changes keep every invariant")
    func stress() async {
        let cache = F.cache(costLimit: 4000, countLimit: 24, fraction: 0.25)
        let keyCount = 48
        // Each key always gets the image tagged with its number, so a hit can be checked.
        let images = (0..<keyCount).map { F.image(tag: $0 + 1) }
        let wrongHits = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var rng = SplitMix64(seed: UInt64(worker))
                    var wrong = 0
                    for _ in 0..<4000 {
                        let number = Int(rng.next() % UInt64(keyCount))
                        let key = "key-\(number)"
                        switch rng.next() % 100 {
                        case 0..<45:
                            if let hit = cache.image(forKey: key), hit.width != number + 1 { wrong += 1 }
                        case 45..<85:
                            cache.setImage(images[number], forKey: key, cost: Int(rng.next() % 1200))
                        case 85..<97:
                            cache.removeImage(forKey: key)
                        case 97:
                            cache.costLimit = 2000 + Int(rng.next() % 4000)
                        case 98:
                            cache.trim(toCost: Int(rng.next() % 3000))
                        default:
                            if rng.next() % 8 == 0 { cache.removeAllImages() } else { cache.countLimit = 8 + worker }
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrongHits == 0)
        #expect(cache.invariantViolation() == nil)
        #expect(cache.totalCost <= cache.costLimit)
        #expect(cache.count <= cache.countLimit)
        // Every key still held returns its own image.
        for key in cache.keysByRecency {
            let number = Int(key.dropFirst(4))!
            #expect(cache.image(forKey: key)?.width == number + 1)
        }
    }
}
