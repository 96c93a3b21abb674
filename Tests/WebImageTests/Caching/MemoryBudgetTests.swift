import Foundation
import Testing

@testable import WebImage
@_spi(Internals) @testable import WebImageServer

#if canImport(Glibc)
    /// The memory caches' budgets bound the memory they take, not only the pixels or bytes they
    /// hold: a flood of tiny entries, each costing far more than its payload, grows the process
    /// by about the budget. Counting payload alone, the same floods keep every entry and grow it
    /// by 250 MiB or more. Other suites allocate while these run, so the bound is four budgets.
    @Suite("Memory caches: the budget bounds the heap", .serialized)
    struct MemoryBudgetTests {
        static func key(_ index: Int) -> String {
            "https://images.example.com/photos/2024/\(1_000_000 + index).jpg"
        }

        @Test func aFloodOfOnePixelImagesTakesAtMostTheMemoryCachesCostLimit() {
            let limit = 24 << 20
            var config = ImageCacheConfig()
            config.maxMemoryCost = limit
            config.maxMemoryEntryFraction = 1
            let memory = MemoryCache(config: config)
            let cache = ImageCache(config: config, memoryCache: memory, diskCache: FakeDiskCache())
            let before = heapBytesInUse()
            for index in 0..<1_000_000 {
                cache.storeImageToMemory(
                    Image(bitmap: ImageBitmap(width: 1, height: 1, fill: .clear)), forKey: Self.key(index))
            }
            let grown = heapBytesInUse() - before
            #expect(memory.totalCost <= limit)
            #expect(memory.count < 1_000_000, "the flood was evicted from")
            #expect(grown <= 4 * limit, "the heap grew by \(grown >> 20) MiB for a \(limit >> 20) MiB budget")
            withExtendedLifetime(cache) {}
        }

        @Test func aFloodOfTinyResultsTakesAtMostTheResultCachesBudget() {
            let limit = 24 << 20
            let cache = ResultMemoryCache(limit: limit)
            let before = heapBytesInUse()
            for index in 0..<400_000 {
                let result = ProcessedResult(
                    data: Data(repeating: UInt8(truncatingIfNeeded: index), count: 40), contentType: "image/webp")
                cache.store(result, forKey: "result:rs:fit:10:10|webp|" + Self.key(index))
            }
            let grown = heapBytesInUse() - before
            #expect(cache.totalBytes <= limit)
            #expect(grown <= 4 * limit, "the heap grew by \(grown >> 20) MiB for a \(limit >> 20) MiB budget")
            withExtendedLifetime(cache) {}
        }
    }
#endif
