import Foundation
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone
import WebImageTestOrigin

// The code of Sources/WebImage/WebImage.docc/DownloadingAndCoalescing.md, kept compiling and
// working. Article and test are kept in sync by hand: change one, change the other. Only the
// URL (the test origin's) differs from the article.
/// Serves `bundle:` URLs from images compiled into the program.
struct BundleImageLoader: ImageLoading {
    let images: [String: Data]

    func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        url.scheme == "bundle"
    }

    func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        guard let data = images[url.path] else {
            throw .transferFailed(TransferFailure(.fileNotFound, "\(url.path) is not in the bundle"))
        }
        events?(.progress(receivedSize: data.count, expectedSize: data.count))
        let image = try ImageLoaderDecoding.decode(data, url: url, options: options, context: context)
        return ImageLoadResult(image: image, data: data, isFinished: true)
    }
}

@Suite("DocC snippets: Downloading and coalescing")
struct DownloadingSnippetTests {
    @Test("A loader of your own is one async function, and gets the callback shape for free")
    func customLoaderSnippet() async throws {
        let bitmap = try ImageBitmap(width: 64, height: 32, pixels: [UInt8](repeating: 200, count: 64 * 32 * 4))
        let logoPNG = try ImageCodersManager.shared.encode(
            Image(bitmap: bitmap, format: .png), as: .png, options: ImageEncodeOptions())

        let loader = BundleImageLoader(images: ["/logo.png": logoPNG])
        let url = URL(string: "bundle:///logo.png")!
        print(try await loader.loadImage(with: url).image.width)  // 64
        let widths = AsyncStream.makeStream(of: Int.self)
        let operation = loader.requestImage(with: url) { result in
            print((try? result.get())?.image.width ?? 0)  // 64, or 0 if cancelled first
            widths.continuation.yield((try? result.get())?.image.width ?? 0)
            widths.continuation.finish()
        }
        operation.cancel()  // ends the load with WebImageError.cancelled, at once

        #expect(try await loader.loadImage(with: url).image.width == 64)
        // Either the load won the race (64) or the cancel did (0); the completion ran once.
        var delivered: [Int] = []
        for await width in widths.stream { delivered.append(width) }
        #expect(delivered == [0] || delivered == [64])
        #expect(operation.isCancelled)
        let missing = URL(string: "bundle:///nothing.png")!
        await #expect(throws: WebImageError.transferFailed(TransferFailure(.fileNotFound, ""))) {
            try await loader.loadImage(with: missing)
        }
        #expect(loader.canRequestImage(for: url, options: [], context: nil))
        #expect(!loader.canRequestImage(for: URL(string: "https://example.com/logo.png")!, options: [], context: nil))
    }

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
