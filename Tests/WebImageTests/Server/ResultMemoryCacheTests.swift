import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// The service's memory tier: a byte budget that counts what each entry holds, least recently
/// used out first.
@Suite("Image service: the result memory cache")
struct ResultMemoryCacheTests {
    static func result(_ byte: UInt8, bytes: Int = 2000) -> ProcessedResult {
        ProcessedResult(data: Data(repeating: byte, count: bytes), contentType: "image/png")
    }

    @Test func theMemoryTierKeepsItsBudgetAndTheMostRecentlyUsed() {
        let entryCost = ResultMemoryCache.cost(of: Self.result(0), key: "k0")
        let cache = ResultMemoryCache(limit: 5 * entryCost)
        for index in 0..<5 { cache.store(Self.result(UInt8(index)), forKey: "k\(index)") }
        #expect(cache.totalBytes == 5 * entryCost)
        _ = cache.result(forKey: "k0")  // now the most recently used
        cache.store(Self.result(9), forKey: "k9")
        #expect(cache.totalBytes == 5 * entryCost)
        #expect(cache.result(forKey: "k0") != nil && cache.result(forKey: "k9") != nil)
        #expect(cache.result(forKey: "k1") == nil)
        cache.store(Self.result(7, bytes: 2 * entryCost), forKey: "big")
        #expect(cache.result(forKey: "big") == nil, "a result above a quarter of the budget is not kept")
        cache.store(Self.result(8), forKey: "k0")
        #expect(cache.count == 5 && cache.totalBytes == 5 * entryCost, "a result stored again replaces the old one")
    }

    /// Forty-byte results under keys as long as the service's: each is charged about 20 times
    /// its bytes, so the cache holds about a twentieth of the entries that counting bytes alone
    /// would let in, and never more than the budget.
    @Test func manyTinyResultsStayWithinTheBudgetCountingWhatEachEntryHolds() {
        let limit = 1 << 20
        let cache = ResultMemoryCache(limit: limit)
        func key(_ index: Int) -> String {
            "result:rs:fit:10:10|webp|https://images.example.com/photos/2024/\(100_000 + index).jpg"
        }
        let tiny = 40
        for index in 0..<50_000 {
            cache.store(Self.result(UInt8(truncatingIfNeeded: index), bytes: tiny), forKey: key(index))
            if index % 5000 == 0 { #expect(cache.totalBytes <= limit) }
        }
        let entryCost = ResultMemoryCache.cost(of: Self.result(0, bytes: tiny), key: key(0))
        #expect(entryCost >= tiny + key(0).utf8.count + ResultMemoryCache.entryOverhead)
        #expect(cache.totalBytes <= limit)
        #expect(cache.totalBytes == cache.count * entryCost)
        #expect(cache.count == limit / entryCost, "the budget is used, with no room left for one more")
        #expect(cache.result(forKey: key(49_999)) != nil && cache.result(forKey: key(0)) == nil)
    }
}
