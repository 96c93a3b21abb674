import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

@Suite("ImageDownloader as a loader: options, config, adapters, loaders manager")
struct DownloaderLoadingTests {
    typealias Support = DownloaderTestSupport

    @Test("The config defaults are SDWebImage's plus ours; bad values fall back")
    func configDefaults() {
        let config = ImageDownloaderConfig.default
        #expect(config.maxConcurrentDownloads == 6)
        #expect(config.downloadTimeout == 15)
        #expect(config.minimumProgressInterval == 0)
        #expect(config.executionOrder == .fifo)
        #expect(config.acceptableStatusCodes == Set(200..<300))
        #expect(config.acceptableContentTypes == nil)
        #expect(config.username == nil && config.password == nil)
        #expect(config.maxResponseSize == ImageLoaderDecoding.defaultMaxDataSize)
        #expect(config.maxRedirects == 10)
        #expect(config.retryPolicy == .none)
        #expect(config.resourceTimeout == 120)
        #expect(config.httpHeaders["Accept"] == "image/*,*/*;q=0.8")
        #expect(config.httpHeaders["User-Agent"] == WebImageUserAgent.default)
        var odd = ImageDownloaderConfig()
        for timeout in [0, -1, .nan, .infinity] as [TimeInterval] {
            odd.downloadTimeout = timeout
            #expect(odd.effectiveTimeout == 15)
            odd.resourceTimeout = timeout
            #expect(odd.effectiveResourceTimeout == 120)
        }
        odd.resourceTimeout = nil
        #expect(odd.effectiveResourceTimeout == nil)
        odd.resourceTimeout = 1e12
        #expect(odd.effectiveResourceTimeout == 86_400)
        odd.minimumProgressInterval = 7
        #expect(odd.effectiveProgressInterval == 1)
        odd.minimumProgressInterval = -.infinity
        #expect(odd.effectiveProgressInterval == 0)
        odd.maxRedirects = -3
        #expect(odd.effectiveMaxRedirects == 0)
    }

    @Test("Requests get tracing spans only when asked: without, the HTTP client has no tracer")
    func tracingIsOptIn() {
        var config = ImageDownloaderConfig.default
        #expect(!config.tracesRequests)
        #expect(ImageDownloader.clientConfiguration(config).tracing.tracer == nil)
        config.tracesRequests = true
        // The bootstrapped tracer (the no-op one in tests) is kept.
        #expect(ImageDownloader.clientConfiguration(config).tracing.tracer != nil)
    }

    @Test(
        "Manager options map bit for bit; refreshing a cached image drops progressive and ignores the cached response")
    func optionsMapping() {
        let all: WebImageOptions = [
            .lowPriority, .progressiveLoad, .refreshCached, .continueInBackground, .handleCookies,
            .allowInvalidSSLCertificates, .highPriority, .scaleDownLargeImages, .avoidDecodeImage,
            .decodeFirstFrameOnly, .preloadAllFrames, .matchAnimatedImageClass,
        ]
        let mapped = ImageDownloaderOptions(all, hasCachedImage: false)
        #expect(mapped.rawValue == ((1 << 13) - 1) & ~ImageDownloaderOptions.ignoreCachedResponse.rawValue)
        let refreshing = ImageDownloaderOptions([.progressiveLoad, .refreshCached], hasCachedImage: true)
        #expect(refreshing == [.useNSURLCache, .ignoreCachedResponse])
        #expect(ImageDownloaderOptions([.progressiveLoad], hasCachedImage: true) == .progressiveLoad)
        #expect(ImageDownloaderOptions([.fromCacheOnly, .retryFailed], hasCachedImage: false).isEmpty)
        #expect(ImageDownloaderOptions.highPriority.rawValue == 1 << 7)
    }

    @Test("canRequestImage accepts http and https only")
    func canRequest() throws {
        let downloader = ImageDownloader.shared
        for (string, expected) in [
            ("http://a/b.png", true), ("HTTPS://a/b.png", true), ("file:///tmp/a.png", false),
            ("data:image/png;base64,AA", false), ("ftp://a/b", false),
        ] {
            let url = try #require(URL(string: string))
            #expect(downloader.canRequestImage(for: url, options: [], context: nil) == expected)
        }
    }

    @Test("The async API loads through the downloader, reports progress, and cancels with the task")
    func asyncAdapters() async throws {
        try await Support.withOrigin { origin, downloader in
            let result = try await downloader.loadImage(with: origin.url(Support.pngPath))
            #expect(result.image.width > 0)
            let sawProgress = Locked(false)
            let finished = try await downloader.loadImage(
                with: origin.url(Support.jpegPath), options: [], context: nil
            ) { event in
                if case .progress = event { sawProgress.withLock { $0 = true } }
            }
            #expect(sawProgress.withLock { $0 })
            #expect(finished.image.width == 800)
            let task = Task { try await downloader.loadImage(with: origin.url(Support.pngPath + "?stall=1")) }
            #expect(await eventually { origin.inFlightCount == 1 })
            task.cancel()
            await #expect(throws: WebImageError.cancelled) { try await task.value }
        }
    }

    @Test("downloadData returns the raw bytes without decoding, and throws for failures")
    func downloadData() async throws {
        try await Support.withOrigin { origin, downloader in
            let data = try await downloader.downloadData(with: origin.url("/garbage/500"))
            #expect(data.count == 500)
            await #expect(throws: WebImageError.invalidDownloadStatusCode(404)) {
                try await downloader.downloadData(with: origin.url("/missing"))
            }
        }
    }

    @Test("ImageLoadersManager routes http, file and data URLs to their loaders")
    func loadersManagerRouting() async throws {
        try await Support.withOrigin { origin, downloader in
            let manager = ImageLoadersManager(loaders: [downloader, FileImageLoader(), DataURLImageLoader()])
            let fileURL = Fixtures.directory.appendingPathComponent("png/rgb8.png")
            let png = try Fixtures.data("png/rgb8.png")
            let dataURL = try #require(URL(string: "data:image/png;base64,\(png.base64EncodedString())"))
            for url in [origin.url(Support.pngPath), fileURL, dataURL] {
                let result = try await manager.loadImage(with: url)
                #expect(result.data == png)
            }
            #expect(origin.requestCount(path: Support.pngPath) == 1)
            #expect(manager.loader(for: origin.url("/x")) is ImageDownloader)
            #expect(
                manager.shouldBlockFailedURL(
                    origin.url("/x"), error: .invalidDownloadStatusCode(404), options: [], context: nil) == false)
            #expect(
                manager.shouldBlockFailedURL(origin.url("/x"), error: .badImageData("x"), options: [], context: nil))
            let shared = ImageLoadersManager.shared.loaders
            #expect(shared.count == 2)
            #expect((shared.first as? ImageDownloader) === ImageDownloader.shared)
            #expect(ImageLoadersManager.shared.loader(for: dataURL) is DataURLImageLoader)
        }
    }

    @Test("requestImage with refreshCached and a cached image revalidates instead of loading progressively")
    func loaderRefresh() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?etag=abc")
            let first = try await downloader.loadImage(with: url)
            var context = WebImageContext()
            context.loaderCachedImage = first.image
            context.loaderCachedMetadata = first.metadata
            await #expect(throws: WebImageError.cacheNotModified) {
                try await downloader.loadImage(
                    with: url, options: [.refreshCached, .progressiveLoad], context: context)
            }
            // Without the cached image the same options simply download.
            context.loaderCachedImage = nil
            let again = try await downloader.loadImage(with: url, options: [.refreshCached], context: context)
            #expect(again.image.width > 0)
        }
    }
}
