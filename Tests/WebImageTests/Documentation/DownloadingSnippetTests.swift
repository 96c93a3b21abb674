import Foundation
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone
import WebImageTestOrigin

// The code of Sources/WebImage/WebImage.docc/DownloadingAndCoalescing.md, kept compiling and
// working. Article and test are kept in sync by hand: change one, change the other. Only the
// URL (the test origin's) differs from the article.
@Suite("DocC snippets: Downloading and coalescing")
struct DownloadingSnippetTests {
    @Test("A configured downloader loads an image and keeps its validators")
    func downloaderSnippet() async throws {
        try await withOrigin { origin in
            let url = origin.url("/fixtures/jpeg/photo_800x600.jpg?etag=v1")

            var config = ImageDownloaderConfig()
            config.maxConcurrentDownloads = 4
            config.executionOrder = .lifo  // the newest request first, as a scrolling list wants
            config.retryPolicy = .exponential(maxAttempts: 3)  // off by default; honours Retry-After
            let downloader = ImageDownloader(config: config)
            let result = try await downloader.loadImage(with: url, options: [.highPriority])
            print(result.image.width, result.metadata?.etag ?? "-")  // validators kept for revalidation
            #expect(result.image.width == 800 && result.metadata?.etag == "\"v1\"")
            await downloader.shutdown()  // closes the HTTP client; call it before the downloader goes away
        }
    }

    @Test("Three concurrent loads of one URL make one HTTP request")
    func coalescingSnippet() async throws {
        try await withOrigin { origin in
            // The delay keeps the transfer open while all three callers join it.
            let url = origin.url("/fixtures/jpeg/photo_800x600.jpg?delay=2000")

            let downloader = ImageDownloader()
            async let first = downloader.loadImage(with: url)
            async let second = downloader.loadImage(with: url)
            async let third = downloader.loadImage(with: url)
            let widths = try await [first, second, third].map(\.image.width)
            print(widths, downloader.statistics.requestCount)  // [800, 800, 800] 1

            #expect(widths == [800, 800, 800])
            #expect(downloader.statistics.requestCount == 1)
            #expect(origin.totalRequestCount == 1)
            await downloader.shutdown()
        }
    }
}
