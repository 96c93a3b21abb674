import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

@Suite("ImagePrefetcher over the origin", .serialized)
struct ImagePrefetcherOriginTests {
    @Test("the concurrency limit holds across tokens: at most 3 requests in flight, all cached on disk")
    func concurrencyAcrossTokens() async throws {
        try await ManagerOriginFixture.run { fixture in
            let prefetcher = ImagePrefetcher(manager: fixture.manager)
            let urls = (0..<30).map { fixture.origin.url("/generated/8x8.png?seed=\($0)&delay=20") }
            async let first = prefetcher.prefetch(Array(urls[0..<15]), options: [.lowPriority, .waitStoreCache])
            async let second = prefetcher.prefetch(Array(urls[15...]), options: [.lowPriority, .waitStoreCache])
            let results = await [first, second]
            #expect(results.map(\.finishedCount) == [15, 15])
            #expect(results.map(\.skippedCount) == [0, 0])
            #expect(fixture.origin.totalRequestCount == 30)
            #expect(fixture.origin.maxInFlightCount <= 3)
            #expect(fixture.origin.maxInFlightCount >= 1)
            for url in urls {
                #expect(await fixture.cache.containsImage(forKey: url.absoluteString, cacheType: .disk) == .disk)
            }
            let statistics = fixture.downloader.statistics
            #expect(statistics.requestCount == 30)
            #expect(statistics.receivedBytes > 0)
        }
    }
}
