import Testing

@testable import WebImage

@Suite("MemoryCache entries")
struct MemoryCacheEntryTests {
    typealias F = MemoryCacheFixture

    @Test("a stored image comes back; a missing key is a miss")
    func storeAndGet() throws {
        let cache = F.cache()
        let image = F.image(tag: 7)
        cache.setImage(image, forKey: "http://x/a.png", cost: image.memoryCost)
        let hit = try #require(cache.image(forKey: "http://x/a.png"))
        #expect(hit.bitmap == image.bitmap)
        #expect(cache.totalCost == 28)
        #expect(cache.image(forKey: "http://x/b.png") == nil)
        #expect(cache.containsImage(forKey: "http://x/a.png"))
        #expect(!cache.containsImage(forKey: "http://x/b.png"))
    }

    @Test("the default config gives the config's limits")
    func defaultLimits() {
        let cache = MemoryCache()
        #expect(cache.costLimit == ImageCacheConfig.defaultMaxMemoryCost)
        #expect(cache.countLimit == 0)
        #expect(cache.maxEntryCost == Int(clamping: Double(ImageCacheConfig.defaultMaxMemoryCost) * 0.1))
    }

    @Test("setting an existing key replaces the image and updates the total cost")
    func replaceUpdatesCost() {
        let cache = F.cache(costLimit: 1000)
        cache.setImage(F.image(tag: 1), forKey: "A", cost: 100)
        cache.setImage(F.image(tag: 2), forKey: "B", cost: 50)
        cache.setImage(F.image(tag: 3), forKey: "A", cost: 300)
        #expect(cache.image(forKey: "A")?.width == 3)
        #expect(cache.totalCost == 350)
        #expect(cache.count == 2)
        cache.setImage(F.image(tag: 4), forKey: "A", cost: 10)
        #expect(cache.totalCost == 60)
        #expect(cache.keysByRecency == ["A", "B"])
        #expect(cache.invariantViolation() == nil)
    }

    @Test("an entry over the per-entry fraction is not kept and removes the older image")
    func oversizedEntryReplacesOlder() {
        let cache = F.cache(costLimit: 1000, fraction: 0.1)
        #expect(cache.maxEntryCost == 100)
        cache.setImage(F.image(tag: 1), forKey: "A", cost: 100)
        cache.setImage(F.image(tag: 2), forKey: "B", cost: 50)
        cache.setImage(F.image(tag: 3), forKey: "A", cost: 101)
        #expect(cache.image(forKey: "A") == nil)
        #expect(cache.keysByRecency == ["B"])
        #expect(cache.totalCost == 50)
        cache.setImage(F.image(tag: 4), forKey: "C", cost: 5000)
        #expect(cache.keysByRecency == ["B"])
        #expect(cache.invariantViolation() == nil)
    }

    @Test("an oversized image is judged by its real memoryCost")
    func oversizedByMemoryCost() {
        let cache = F.cache(costLimit: 4000, fraction: 0.1)
        let big = Image(bitmap: ImageBitmap(width: 20, height: 10, fill: .clear))  // 800 bytes
        let small = Image(bitmap: ImageBitmap(width: 10, height: 10, fill: .clear))  // 400 bytes
        cache.setImage(big, forKey: "big", cost: big.memoryCost)
        cache.setImage(small, forKey: "small", cost: small.memoryCost)
        #expect(cache.keysByRecency == ["small"])
        #expect(cache.totalCost == 400)
    }

    @Test("a fraction outside (0, 1] caps entries at the whole cost limit")
    func fractionOutOfRange() {
        for fraction in [0, -1, 2, Double.nan, .infinity] {
            let cache = F.cache(costLimit: 100, fraction: fraction)
            #expect(cache.maxEntryCost == 100)
            cache.setImage(F.image(tag: 1), forKey: "fits", cost: 100)
            cache.setImage(F.image(tag: 2), forKey: "too big", cost: 101)
            #expect(cache.keysByRecency == ["fits"])
        }
    }

    @Test("remove drops one key; removeAllImages empties the cache, which stays usable")
    func removeAndRemoveAll() {
        let cache = F.cache(costLimit: 1000)
        cache.setImage(F.image(tag: 1), forKey: "A", cost: 10)
        cache.setImage(F.image(tag: 2), forKey: "B", cost: 20)
        cache.setImage(F.image(tag: 3), forKey: "C", cost: 30)
        cache.removeImage(forKey: "B")
        cache.removeImage(forKey: "not there")
        #expect(cache.keysByRecency == ["C", "A"])
        #expect(cache.totalCost == 40)
        cache.removeAllImages()
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.image(forKey: "A") == nil)
        cache.setImage(F.image(tag: 4), forKey: "A", cost: 5)
        #expect(cache.image(forKey: "A")?.width == 4)
        #expect(cache.totalCost == 5)
        #expect(cache.invariantViolation() == nil)
    }

    @Test("totalCost stays exact through mixed stores, replacements, hits, removals and evictions")
    func totalCostExactAfterMixedOperations() {
        let cache = F.cache(costLimit: 10_000, countLimit: 40, fraction: 0.5)
        var rng = SplitMix64(seed: 42)
        var model: [String: Int] = [:]  // key → cost, for the entries still held
        for _ in 0..<5000 {
            let key = "k\(rng.next() % 64)"
            switch rng.next() % 4 {
            case 0, 1:
                let cost = Int(rng.next() % 6000)
                cache.setImage(F.image(tag: 1), forKey: key, cost: cost)
                model[key] = cost <= 5000 ? cost : nil
            case 2:
                _ = cache.image(forKey: key)
            default:
                cache.removeImage(forKey: key)
                model[key] = nil
            }
            // Evictions drop only what the cache says it no longer holds.
            let held = Set(cache.keysByRecency)
            model = model.filter { held.contains($0.key) }
            #expect(held.count == model.count)
        }
        #expect(cache.totalCost == model.values.reduce(0, +))
        #expect(cache.invariantViolation() == nil)
    }

    @Test("hostile keys are ordinary keys", arguments: ["", "\0", "a\0b", "../../etc/passwd", "/", "🙂\u{301}"])
    func hostileKeys(key: String) {
        let cache = F.cache(costLimit: 100)
        cache.setImage(F.image(tag: 3), forKey: key, cost: 10)
        cache.setImage(F.image(tag: 4), forKey: key + "x", cost: 10)
        #expect(cache.image(forKey: key)?.width == 3)
        cache.removeImage(forKey: key)
        #expect(cache.image(forKey: key) == nil)
        #expect(cache.image(forKey: key + "x")?.width == 4)
    }

    @Test("a very long key works and does not collide with its prefix")
    func veryLongKey() {
        let cache = F.cache()
        let long = String(repeating: "k", count: 1 << 20)
        cache.setImage(F.image(tag: 1), forKey: long, cost: 1)
        cache.setImage(F.image(tag: 2), forKey: String(long.dropLast()), cost: 1)
        #expect(cache.image(forKey: long)?.width == 1)
        #expect(cache.count == 2)
    }

    @Test("negative and overflowing costs neither trap nor corrupt the total")
    func hostileCosts() {
        let cache = F.cache()
        cache.setImage(F.image(tag: 1), forKey: "negative", cost: -100)
        #expect(cache.totalCost == 0)
        #expect(cache.image(forKey: "negative")?.width == 1)
        cache.setImage(F.image(tag: 2), forKey: "max", cost: .max)
        #expect(cache.totalCost == .max)
        // Would overflow the total: not kept, and the older image under the key goes too.
        cache.setImage(F.image(tag: 3), forKey: "negative", cost: 1)
        cache.setImage(F.image(tag: 4), forKey: "more", cost: .max)
        #expect(cache.image(forKey: "negative") == nil)
        #expect(cache.image(forKey: "more") == nil)
        #expect(cache.totalCost == .max)
        #expect(cache.invariantViolation() == nil)

        let limited = F.cache(costLimit: .max)
        limited.setImage(F.image(tag: 1), forKey: "a", cost: .max)
        limited.setImage(F.image(tag: 2), forKey: "b", cost: .max)
        #expect(limited.keysByRecency == ["b"])
        #expect(limited.totalCost == .max)
    }
}
