import Testing

@testable import WebImage

@Suite("MemoryCache eviction")
struct MemoryCacheEvictionTests {
    typealias F = MemoryCacheFixture

    @Test("cost pressure evicts the least recently used entry, and a hit counts as a use")
    func lruOrderUnderCostPressure() {
        let cache = F.cache(costLimit: 300)
        cache.setImage(F.image(tag: 1), forKey: "A", cost: 100)
        cache.setImage(F.image(tag: 2), forKey: "B", cost: 100)
        cache.setImage(F.image(tag: 3), forKey: "C", cost: 100)
        #expect(cache.image(forKey: "A")?.width == 1)
        cache.setImage(F.image(tag: 4), forKey: "D", cost: 100)

        #expect(cache.keysByRecency == ["D", "A", "C"])
        #expect(cache.image(forKey: "B") == nil)
        #expect(cache.image(forKey: "A")?.width == 1)
        #expect(cache.totalCost == 300)
        #expect(cache.count == 3)
        #expect(cache.invariantViolation() == nil)
    }

    @Test("a large store evicts as many old entries as it needs, oldest first")
    func largeStoreEvictsSeveral() {
        let cache = F.cache(costLimit: 1000)
        for (index, key) in ["a", "b", "c", "d", "e"].enumerated() {
            cache.setImage(F.image(tag: index + 1), forKey: key, cost: 200)
        }
        cache.setImage(F.image(tag: 9), forKey: "big", cost: 550)
        #expect(cache.keysByRecency == ["big", "e", "d"])
        #expect(cache.totalCost == 950)
    }

    @Test("the count limit evicts least recently used entries")
    func countLimit() {
        let cache = F.cache(countLimit: 2)
        cache.setImage(F.image(tag: 1), forKey: "A", cost: 1)
        cache.setImage(F.image(tag: 2), forKey: "B", cost: 1)
        _ = cache.image(forKey: "A")
        cache.setImage(F.image(tag: 3), forKey: "C", cost: 1)
        #expect(cache.keysByRecency == ["C", "A"])
        #expect(cache.count == 2)
        #expect(cache.totalCost == 2)
    }

    @Test("limits of 0 are unlimited")
    func zeroLimitsAreUnlimited() {
        let cache = F.cache(costLimit: 0, countLimit: 0)
        for index in 0..<500 {
            cache.setImage(F.image(tag: 1), forKey: "k\(index)", cost: 1 << 30)
        }
        #expect(cache.count == 500)
        #expect(cache.totalCost == 500 << 30)
        #expect(cache.maxEntryCost == .max)
    }

    @Test("lowering the cost limit evicts at once, oldest first")
    func loweringCostLimitEvicts() {
        let cache = F.cache(costLimit: 1000)
        for key in ["A", "B", "C", "D"] { cache.setImage(F.image(tag: 1), forKey: key, cost: 100) }
        _ = cache.image(forKey: "A")
        cache.costLimit = 250
        #expect(cache.costLimit == 250)
        #expect(cache.keysByRecency == ["A", "D"])
        #expect(cache.totalCost == 200)
        #expect(cache.invariantViolation() == nil)
    }

    @Test("lowering the count limit evicts at once; raising it evicts nothing")
    func loweringCountLimitEvicts() {
        let cache = F.cache()
        for key in ["A", "B", "C", "D"] { cache.setImage(F.image(tag: 1), forKey: key, cost: 10) }
        cache.countLimit = 1
        #expect(cache.keysByRecency == ["D"])
        #expect(cache.totalCost == 10)
        cache.countLimit = 100
        cache.costLimit = 1_000_000
        #expect(cache.keysByRecency == ["D"])
    }

    @Test("a negative limit counts as unlimited")
    func negativeLimits() {
        let cache = F.cache(costLimit: 100, countLimit: 1)
        cache.costLimit = -5
        cache.countLimit = -1
        #expect(cache.costLimit == 0)
        #expect(cache.countLimit == 0)
        cache.setImage(F.image(tag: 1), forKey: "A", cost: 1000)
        cache.setImage(F.image(tag: 2), forKey: "B", cost: 1000)
        #expect(cache.count == 2)
    }

    @Test("trim(toCost:) evicts oldest first down to the cost and keeps the limits")
    func trimToCost() {
        let cache = F.cache(costLimit: 1000)
        for key in ["A", "B", "C", "D"] { cache.setImage(F.image(tag: 1), forKey: key, cost: 100) }
        _ = cache.image(forKey: "B")
        cache.trim(toCost: 250)
        #expect(cache.keysByRecency == ["B", "D"])
        #expect(cache.totalCost == 200)
        #expect(cache.costLimit == 1000)
        cache.trim(toCost: 1_000_000)
        #expect(cache.count == 2)
        cache.trim(toCost: -1)
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.invariantViolation() == nil)
    }

    @Test("freed slots are reused after churn; the order stays strict")
    func churnReusesSlots() {
        let cache = F.cache(countLimit: 3)
        for index in 0..<1000 {
            cache.setImage(F.image(tag: 1 + index % 7), forKey: "k\(index)", cost: index % 5)
            if index % 3 == 0 { _ = cache.image(forKey: "k\(index - 1)") }
        }
        #expect(cache.count == 3)
        #expect(cache.invariantViolation() == nil)
        #expect(cache.keysByRecency == ["k998", "k999", "k997"])
        // Stores insert before they evict, so four slots serve a limit of three.
        #expect(cache.slotCount == 4)
    }
}
