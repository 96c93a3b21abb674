import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

@Suite("ImageDownloader coalescing and cancellation")
struct DownloaderCoalescingTests {
    typealias Support = DownloaderTestSupport

    @Test("100 concurrent requests for one URL make 1 origin request and 100 completions")
    func hundredCallersOneRequest() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?delay=300")
            let recorders = (0..<100).map { _ in ResultRecorder() }
            let tokens = recorders.map { downloader.downloadImage(with: url, completion: $0.completion) }
            #expect(Set(tokens.compactMap { $0.map(ObjectIdentifier.init) }).count == 100)
            var successes = 0
            for recorder in recorders where (await recorder.result()).value?.image.width ?? 0 > 0 {
                successes += 1
            }
            #expect(successes == 100)
            #expect(origin.requestCount(path: Support.pngPath) == 1)
            #expect(recorders.allSatisfy { $0.terminalCount == 1 && $0.callsAfterTerminal == 0 })
        }
    }

    @Test("A revalidation and a plain download of one URL never share a transfer: each gets its own answer")
    func revalidationDoesNotJoinPlainDownload() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?etag=abc&delay=300")
            let first = try await downloader.loadImage(with: url)
            var context = WebImageContext()
            context.loaderCachedImage = first.image
            context.loaderCachedMetadata = first.metadata
            let revalidating = ImageDownloaderOptions([.refreshCached], hasCachedImage: true)
            // Both orders: the second caller arrives while the first one's transfer is in flight.
            for revalidatesFirst in [false, true] {
                #expect(await eventually { downloader.currentDownloadCount == 0 })
                origin.resetCounters()
                let plain = ResultRecorder()
                let revalidation = ResultRecorder()
                let startPlain = { downloader.downloadImage(with: url, completion: plain.completion) }
                let startRevalidation = {
                    downloader.downloadImage(
                        with: url, options: revalidating, context: context, completion: revalidation.completion)
                }
                if revalidatesFirst { _ = startRevalidation() } else { _ = startPlain() }
                #expect(await eventually { origin.requestCount(path: Support.pngPath) == 1 })
                if revalidatesFirst { _ = startPlain() } else { _ = startRevalidation() }
                #expect(await plain.result().value?.image.width == first.image.width)
                #expect(await revalidation.result().error == .cacheNotModified)
                #expect(origin.requestCount(path: Support.pngPath) == 2, "revalidatesFirst \(revalidatesFirst)")
                let conditional = origin.requests(path: Support.pngPath).filter { $0.header("If-None-Match") != nil }
                #expect(conditional.count == 1)
            }
        }
    }

    @Test("Cancelling one of two callers ends only it; the other succeeds from the same request")
    func cancelOneOfTwo() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?delay=300")
            let first = ResultRecorder()
            let second = ResultRecorder()
            let token = downloader.downloadImage(with: url, completion: first.completion)
            downloader.downloadImage(with: url, completion: second.completion)
            token?.cancel()
            token?.cancel()
            #expect(token?.isCancelled == true)
            #expect(await first.result().error == .cancelled)
            #expect(await second.result().value?.image.width ?? 0 > 0)
            #expect(origin.requestCount(path: Support.pngPath) == 1)
            #expect(first.terminalCount == 1 && first.callsAfterTerminal == 0)
        }
    }

    @Test("Cancelling every caller stops the transfer: the origin sees the connection close")
    func cancelAllStopsTransfer() async throws {
        // Only the cancel may end this transfer: on a loaded machine the request can take longer
        // than the default 15 s timeout to reach the origin, and a timeout is not what is tested.
        var config = ImageDownloaderConfig()
        config.downloadTimeout = 600
        try await Support.withOrigin(config: config) { origin, downloader in
            let recorder = ResultRecorder()
            let token = downloader.downloadImage(
                with: origin.url(Support.pngPath + "?stall=1"), completion: recorder.completion)
            #expect(await eventually(timeout: .seconds(120)) { origin.inFlightCount == 1 })
            #expect(origin.inFlightCount == 1)
            token?.cancel()
            let error = await recorder.result().error
            #expect(error == .cancelled, "ended with \(String(describing: error))")
            #expect(await eventually { origin.inFlightCount == 0 })
            #expect(origin.inFlightCount == 0)
            #expect(await eventually { downloader.currentDownloadCount == 0 })
            #expect(downloader.currentDownloadCount == 0)
        }
    }

    @Test("cancelAllDownloads ends every caller, queued ones too, and empties the queue")
    func cancelAllDownloads() async throws {
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = 1
        config.downloadTimeout = 600
        try await Support.withOrigin(config: config) { origin, downloader in
            let recorders = (0..<3).map { _ in ResultRecorder() }
            for (index, recorder) in recorders.enumerated() {
                downloader.downloadImage(
                    with: origin.url(Support.pngPath + "?stall=1&n=\(index)"), completion: recorder.completion)
            }
            #expect(downloader.currentDownloadCount == 3)
            downloader.cancelAllDownloads()
            for recorder in recorders { #expect(await recorder.result().error == .cancelled) }
            #expect(await eventually { downloader.currentDownloadCount == 0 })
            #expect(downloader.currentDownloadCount == 0)
            #expect(origin.requestCount(path: Support.pngPath) <= 1)
        }
    }

    @Test("A URL requested again after a cancel downloads afresh")
    func reRequestAfterCancel() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?delay=200")
            let cancelled = ResultRecorder()
            downloader.downloadImage(with: url, completion: cancelled.completion)?.cancel()
            #expect(await cancelled.result().error == .cancelled)
            let again = await Support.download(downloader, url)
            #expect(again.value?.image.width ?? 0 > 0)
            // And after a finished download, too: a new transfer, not a stale one.
            let before = origin.requestCount(path: Support.pngPath)
            #expect(before >= 1)
            let third = await Support.download(downloader, url)
            #expect(third.value?.image.width ?? 0 > 0)
            #expect(origin.requestCount(path: Support.pngPath) == before + 1)
        }
    }

    @Test("Each caller gets its own thumbnail size from one request")
    func perCallerDecodeOptions() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.jpegPath + "?delay=200")
            var small = WebImageContext()
            small.imageThumbnailPixelSize = PixelSize(width: 40, height: 40)
            var large = WebImageContext()
            large.imageThumbnailPixelSize = PixelSize(width: 200, height: 200)
            let a = ResultRecorder()
            let b = ResultRecorder()
            let c = ResultRecorder()
            downloader.downloadImage(with: url, context: small, completion: a.completion)
            downloader.downloadImage(with: url, context: large, completion: b.completion)
            downloader.downloadImage(with: url, completion: c.completion)
            let smallImage = try #require(await a.result().value?.image)
            let largeImage = try #require(await b.result().value?.image)
            let fullImage = try #require(await c.result().value?.image)
            #expect(max(smallImage.width, smallImage.height) == 40)
            #expect(max(largeImage.width, largeImage.height) == 200)
            #expect(fullImage.width == 800 && fullImage.height == 600)
            #expect(origin.requestCount(path: Support.jpegPath) == 1)
        }
    }

    @Test("Finished downloads leave no transfer or decode behind, so their bodies and images are freed")
    func finishedDownloadsLetGoOfEverything() async throws {
        try await Support.withOrigin { origin, downloader in
            let thumbnailContext = {
                var context = WebImageContext()
                context.imageThumbnailPixelSize = PixelSize(width: 16, height: 16)
                return context
            }()
            for index in 0..<20 {
                let url = origin.url(Support.jpegPath + "?n=\(index)")
                // Two decodes of one transfer (full size and a thumbnail), and the bytes alone.
                async let full = downloader.downloadImage(with: url, options: .progressiveLoad)
                async let thumbnail = downloader.downloadImage(with: url, context: thumbnailContext)
                async let bytes = downloader.downloadData(with: url)
                let results = try await (full.image.width, thumbnail.image.width, bytes.count)
                #expect(results.0 == 800 && results.1 == 16 && results.2 > 0)
            }
            #expect(await eventually { downloader.decodes.liveSubscriptionCount == 0 })
            #expect(await eventually { downloader.transfers.liveSubscriptionCount == 0 })
            #expect(downloader.decodes.count == 0 && downloader.transfers.count == 0)
        }
    }

    @Test("Callers with identical decode options and coder share one decode")
    func identicalOptionsDecodeOnce() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?delay=200")
            let coder = CountingCoder()
            var context = WebImageContext()
            context.imageCoder = coder
            var thumbnail = context
            thumbnail.imageThumbnailPixelSize = PixelSize(width: 2, height: 2)
            let recorders = (0..<4).map { _ in ResultRecorder() }
            for (index, recorder) in recorders.enumerated() {
                downloader.downloadImage(
                    with: url, context: index == 3 ? thumbnail : context, completion: recorder.completion)
            }
            for recorder in recorders { #expect(await recorder.result().value != nil) }
            #expect(coder.decodes == 2)
            #expect(origin.requestCount(path: Support.pngPath) == 1)
        }
    }

    @Test("A caller joining while the body arrives is served by the same transfer")
    func joinMidTransfer() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.jpegPath + "?drip=1024:20")
            let first = ResultRecorder()
            let late = ResultRecorder()
            // The first body chunk (of about 14) is the moment to join: the transfer is mid-body.
            let joined = Locked(false)
            let joinOnFirstBytes: ImageLoaderProgress = { received, _, _ in
                guard received > 0 else { return }
                let join = joined.withLock { joined in
                    defer { joined = true }
                    return !joined
                }
                if join { downloader.downloadImage(with: url, completion: late.completion) }
            }
            downloader.downloadImage(with: url, progress: joinOnFirstBytes, completion: first.completion)
            #expect(await first.result().value?.image.width == 800)
            #expect(await eventually { joined.withLock { $0 } })
            #expect(await late.result().value?.image.width == 800)
            #expect(origin.requestCount(path: Support.jpegPath) == 1)
        }
    }

    @Test("Tokens report the request, the response and the metrics")
    func tokenMetrics() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?redirect=2")
            let recorder = ResultRecorder()
            let token = try #require(downloader.downloadImage(with: url, completion: recorder.completion))
            let result = await recorder.result()
            let size = try Support.fixtureSize("png/rgb8.png")
            #expect(result.value?.data?.count == size)
            #expect(token.url == url)
            #expect(token.request?.url == url)
            #expect(token.request?.method == "GET")
            #expect(token.response?.statusCode == 200)
            #expect(token.response?.url.query?.contains("redirect=0") == true)
            let metrics = token.metrics
            #expect(metrics.redirectCount == 2)
            #expect(metrics.receivedBytes == size)
            #expect(metrics.requestCount == 3)
            let start = try #require(metrics.startDate)
            let end = try #require(metrics.endDate)
            #expect(start <= end)
        }
    }
}
