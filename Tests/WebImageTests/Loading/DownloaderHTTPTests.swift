import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

@Suite("ImageDownloader HTTP semantics and failures")
struct DownloaderHTTPTests {
    typealias Support = DownloaderTestSupport

    private func shortTimeout(_ seconds: TimeInterval = 0.5) -> ImageDownloaderConfig {
        var config = ImageDownloaderConfig()
        config.downloadTimeout = seconds
        return config
    }

    private func blocked(_ downloader: ImageDownloader, _ url: URL, _ error: WebImageError) -> Bool {
        downloader.shouldBlockFailedURL(url, error: error, options: [], context: nil)
    }

    @Test("A simple download decodes the image and returns its bytes and metadata")
    func simpleDownload() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath)
            let result = try await Support.download(downloader, url).get()
            let expected = try ImageCodersManager.shared.decode(
                Fixtures.data("png/rgb8.png"), options: ImageDecodeOptions())
            #expect(result.image.bitmap == expected.bitmap)
            #expect(result.data == (try Fixtures.data("png/rgb8.png")))
            #expect(result.isFinished)
            #expect(result.metadata?.contentType == "image/png")
        }
    }

    @Test("A stalled response fails with timedOut after the download timeout; not blocked")
    func stallTimesOut() async throws {
        try await Support.withOrigin(config: shortTimeout()) { origin, downloader in
            let url = origin.url(Support.pngPath + "?stall=1")
            let error = try #require(await Support.download(downloader, url).error)
            #expect(error.transferKind == .timedOut)
            #expect(!blocked(downloader, url, error))
            // Twenty times the timeout: the idle monitor gives a starved thread pool some grace.
            let late = try #require(
                await Support.download(downloader, origin.url(Support.pngPath + "?delay=10000")).error)
            #expect(late.transferKind == .timedOut)
        }
    }

    @Test("A request modifier's shorter timeout applies to that request")
    func perRequestTimeout() async throws {
        try await Support.withOrigin { origin, downloader in
            var context = WebImageContext()
            context.downloadRequestModifier = ImageDownloadRequestModifier { request in
                var request = request
                request.timeout = 0.4
                return request
            }
            let url = origin.url(Support.pngPath + "?stall=1")
            let error = try #require(await Support.download(downloader, url, context: context).error)
            #expect(error.transferKind == .timedOut)
            #expect(await Support.download(downloader, origin.url(Support.pngPath), context: context).value != nil)
        }
    }

    @Test(
        "The download timeout is an idle timeout: a body dripping for longer than it, but never pausing that long, arrives"
    )
    func slowButSteadyBodyArrives() async throws {
        try await Support.withOrigin(config: shortTimeout(8)) { origin, downloader in
            let size = try Support.fixtureSize("jpeg/photo_800x600.jpg")
            // Twenty chunks 450 ms apart: about 9 s in all, never more than 450 ms idle. The
            // slack is wide because a 2-core machine running every suite at once (or sanitizers,
            // or fuzzers) has kept this transfer from seeing bytes for over 5 s.
            let url = origin.url(Support.jpegPath + "?drip=\(size / 20 + 1):450")
            let started = Date()
            let result = await Support.download(downloader, url)
            #expect(result.error == nil)
            #expect(result.value?.data?.count == size)
            #expect(Date().timeIntervalSince(started) > 8)
        }
    }

    @Test("A body that pauses longer than the timeout mid-way fails with timedOut")
    func pauseMidBodyTimesOut() async throws {
        try await Support.withOrigin(config: shortTimeout(0.3)) { origin, downloader in
            let size = try Support.fixtureSize("jpeg/photo_800x600.jpg")
            let url = origin.url(Support.jpegPath + "?drip=\(size / 2):1500")
            let error = try #require(await Support.download(downloader, url).error)
            #expect(error.transferKind == .timedOut)
            // The slot is released just after the callers hear the error.
            #expect(await eventually { downloader.currentDownloadCount == 0 })
            #expect(downloader.currentDownloadCount == 0)
        }
    }

    @Test("With a retry policy, every timed-out attempt is retried, then the timeout is reported")
    func timeoutsAreRetried() async throws {
        var config = shortTimeout(0.3)
        config.retryPolicy = ImageDownloadRetryPolicy(maxAttempts: 3, baseDelay: 0.01, jitter: 0)
        try await Support.withOrigin(config: config) { origin, downloader in
            let url = origin.url(Support.pngPath + "?stall=1")
            let error = try #require(await Support.download(downloader, url).error)
            #expect(error.transferKind == .timedOut)
            #expect(origin.requestCount(path: Support.pngPath) == 3)
        }
    }

    @Test("Cancelling the only caller of a stalled download ends it with cancelled, not timedOut")
    func cancelDuringStallIsCancelled() async throws {
        // A long timeout: the cancel must come first even when a loaded machine delays this task.
        try await Support.withOrigin(config: shortTimeout(30)) { origin, downloader in
            let recorder = ResultRecorder()
            let token = downloader.downloadImage(
                with: origin.url(Support.pngPath + "?stall=1"), completion: recorder.completion)
            #expect(await eventually { origin.requestCount(path: Support.pngPath) == 1 })
            token?.cancel()
            #expect(await recorder.result().error == .cancelled)
            #expect(await eventually { downloader.currentDownloadCount == 0 })
            #expect(downloader.currentDownloadCount == 0)
        }
    }

    @Test("A connection reset mid-body fails with connectionLost; not blocked")
    func resetMidBody() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.jpegPath + "?reset=100")
            let error = try #require(await Support.download(downloader, url).error)
            #expect(error.transferKind == .connectionLost)
            #expect(!blocked(downloader, url, error))
        }
    }

    @Test("A failed download's error message names the URL without its user name and password")
    func errorMessagesRedactCredentials() async throws {
        try await Support.withOrigin(config: shortTimeout()) { origin, downloader in
            var components = try #require(
                URLComponents(url: origin.url(Support.pngPath + "?stall=1"), resolvingAgainstBaseURL: false))
            components.user = "alice"
            components.password = "s3cret"
            let url = try #require(components.url)
            let error = try #require(await Support.download(downloader, url).error)
            #expect(error.transferKind == .timedOut)
            #expect(error.message.contains("127.0.0.1"))
            #expect(error.message.contains(Support.pngPath + "?stall=1"))
            #expect(!error.message.contains("alice"))
            #expect(!error.message.contains("s3cret"))
            #expect(!"\(error)".contains("s3cret"))
        }
    }

    @Test("A body shorter than its Content-Length fails with connectionLost")
    func shortBody() async throws {
        try await Support.withOrigin { origin, downloader in
            let error = try #require(
                await Support.download(downloader, origin.url(Support.jpegPath + "?short=100")).error)
            #expect(error.transferKind == .connectionLost)
        }
    }

    @Test("404 fails with invalidDownloadStatusCode(404) and is not blocked")
    func notFound() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url("/no/such/image.png")
            let error = try #require(await Support.download(downloader, url).error)
            #expect(error == .invalidDownloadStatusCode(404))
            #expect(error.code == 2001)
            #expect(!blocked(downloader, url, error))
        }
    }

    @Test("A garbage body fails with badImageData and is blocked")
    func garbageBody() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url("/garbage/2000")
            let error = try #require(await Support.download(downloader, url).error)
            #expect(error.code == 1001)
            #expect(blocked(downloader, url, error))
        }
    }

    @Test("A refused connection fails with cannotConnect and is not blocked")
    func connectionRefused() async throws {
        let origin = try await TestOrigin.start()
        let url = origin.url(Support.pngPath)
        try await origin.shutdown()
        let downloader = ImageDownloader()
        let error = try #require(await Support.download(downloader, url).error)
        #expect(error.transferKind == .cannotConnect)
        #expect(!blocked(downloader, url, error))
        #expect(!blocked(downloader, url, .cancelled))
        await downloader.shutdown()
    }

    @Test("https to a plain-HTTP server fails with secureConnectionFailed and is blocked")
    func tlsFailure() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = try #require(URL(string: "https://127.0.0.1:\(origin.port)\(Support.pngPath)"))
            for options in [ImageDownloaderOptions(), .allowInvalidSSLCertificates] {
                let error = try #require(await Support.download(downloader, url, options: options).error)
                #expect(error.transferKind == .secureConnectionFailed)
                #expect(blocked(downloader, url, error))
            }
        }
    }

    @Test("Status codes outside the acceptable set fail with 2001; unacceptable types with 2004")
    func acceptableCodesAndTypes() async throws {
        var codes = ImageDownloaderConfig()
        codes.acceptableStatusCodes = [1]
        try await Support.withOrigin(config: codes) { origin, downloader in
            let error = try #require(await Support.download(downloader, origin.url(Support.pngPath)).error)
            #expect(error == .invalidDownloadStatusCode(200))
        }
        var any = ImageDownloaderConfig()
        any.acceptableStatusCodes = nil
        try await Support.withOrigin(config: any) { origin, downloader in
            // No status check: the 500's body (the image) decodes.
            #expect(await Support.download(downloader, origin.url(Support.pngPath + "?status=500")).value != nil)
        }
        var types = ImageDownloaderConfig()
        types.acceptableContentTypes = ["application/json"]
        try await Support.withOrigin(config: types) { origin, downloader in
            let error = try #require(await Support.download(downloader, origin.url(Support.pngPath)).error)
            #expect(error == .invalidDownloadContentType("image/png"))
            #expect(error.code == 2004)
            let none = try #require(await Support.download(downloader, origin.url(Support.pngPath + "?type=")).error)
            #expect(none == .invalidDownloadContentType(nil))
        }
        var png = ImageDownloaderConfig()
        png.acceptableContentTypes = ["IMAGE/PNG"]
        try await Support.withOrigin(config: png) { origin, downloader in
            let url = origin.url(Support.pngPath + "?type=image%2Fpng%3B%20charset%3Dbinary")
            #expect(await Support.download(downloader, url).value != nil)
        }
    }

    @Test("Basic auth: credentials go only after a Basic challenge, once; wrong ones end in 401")
    func basicAuth() async throws {
        var config = ImageDownloaderConfig()
        config.username = "user"
        config.password = "secret"
        try await Support.withOrigin(config: config) { origin, downloader in
            let url = origin.url(Support.pngPath + "?auth=user:secret")
            #expect(await Support.download(downloader, url).value != nil)
            let requests = origin.requests(path: Support.pngPath)
            #expect(requests.count == 2)
            #expect(requests.first?.header("Authorization") == nil)
            #expect(requests.last?.header("Authorization") == "Basic dXNlcjpzZWNyZXQ=")
            let wrong = origin.url(Support.jpegPath + "?auth=user:other")
            #expect(await Support.download(downloader, wrong).error == .invalidDownloadStatusCode(401))
            #expect(origin.requestCount(path: Support.jpegPath) == 2)
        }
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?auth=user:secret")
            #expect(await Support.download(downloader, url).error == .invalidDownloadStatusCode(401))
            #expect(origin.requestCount(path: Support.pngPath) == 1)
        }
    }

    @Test("Redirects are followed and counted, bounded by maxRedirects; a loop fails with tooManyRedirects")
    func redirects() async throws {
        var config = ImageDownloaderConfig()
        config.maxRedirects = 3
        try await Support.withOrigin(config: config) { origin, downloader in
            let recorder = ResultRecorder()
            let token = downloader.downloadImage(
                with: origin.url(Support.pngPath + "?redirect=3"), completion: recorder.completion)
            #expect(await recorder.result().value != nil)
            #expect(token?.metrics.redirectCount == 3)
            let tooMany = try #require(
                await Support.download(downloader, origin.url(Support.pngPath + "?redirect=4")).error)
            #expect(tooMany.transferKind == .tooManyRedirects)
            let loop = origin.url(Support.jpegPath + "?redirectLoop=1")
            let error = try #require(await Support.download(downloader, loop).error)
            #expect(error.transferKind == .tooManyRedirects)
            #expect(origin.requestCount(path: Support.jpegPath) == 4)
            let target = "/fixtures/jpeg/gray.jpg".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let moved = await Support.download(downloader, origin.url("/moved?redirectTo=\(target)"))
            #expect(moved.value?.image.width ?? 0 > 0)
        }
    }

    @Test("A redirect to a non-HTTP scheme fails with invalidURL instead of reading it")
    func redirectToFileScheme() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?status=302&header=Location%3Afile%3A%2F%2F%2Fetc%2Fpasswd")
            let error = try #require(await Support.download(downloader, url).error)
            #expect(error == .invalidURL("file:///etc/passwd"))
        }
    }

    @Test("gzip and deflate bodies are decoded transparently")
    func compression() async throws {
        try await Support.withOrigin { origin, downloader in
            for encoding in ["gzip", "deflate"] {
                let recorder = ResultRecorder()
                let token = downloader.downloadImage(
                    with: origin.url(Support.pngPath + "?\(encoding)=1"), completion: recorder.completion)
                let result = try await recorder.result().get()
                #expect(result.data == (try Fixtures.data("png/rgb8.png")))
                #expect(token?.response?.headers["Content-Encoding"] == encoding)
            }
            #expect(
                origin.requests(path: Support.pngPath).allSatisfy {
                    $0.header("Accept-Encoding")?.contains("gzip") == true
                })
        }
    }

    @Test("Cookies are stored and sent only with handleCookies")
    func cookies() async throws {
        try await Support.withOrigin { origin, downloader in
            let set = origin.url(Support.pngPath + "?setCookie=session%3Dabc%3B%20Path%3D%2F")
            let needs = origin.url(Support.jpegPath + "?requireCookie=session%3Dabc")
            #expect(await Support.download(downloader, set).value != nil)
            #expect(
                await Support.download(downloader, needs, options: .handleCookies).error
                    == .invalidDownloadStatusCode(403))
            // Each download after the last one returned is a request of its own.
            #expect(await Support.download(downloader, set, options: .handleCookies).value != nil)
            #expect(await Support.download(downloader, needs, options: .handleCookies).value != nil)
            #expect(await Support.download(downloader, needs).error == .invalidDownloadStatusCode(403))
            #expect(origin.requests(path: Support.jpegPath).last?.header("Cookie") == nil)
        }
    }

    @Test("Refreshing with stored validators sends them; 304 ends in cacheNotModified")
    func conditionalRefresh() async throws {
        try await Support.withOrigin { origin, downloader in
            for query in ["etag=v1", "lastModified=1"] {
                let url = origin.url(Support.pngPath + "?\(query)")
                let first = try await Support.download(downloader, url).get()
                let metadata = try #require(first.metadata)
                #expect(metadata.etag != nil || metadata.lastModified != nil)
                var context = WebImageContext()
                context.loaderCachedImage = first.image
                context.loaderCachedMetadata = metadata
                let options = ImageDownloaderOptions([.refreshCached], hasCachedImage: true)
                #expect(
                    await Support.download(downloader, url, options: options, context: context).error
                        == .cacheNotModified)
                let last = try #require(origin.requests(path: Support.pngPath).last)
                #expect(last.header("If-None-Match") == metadata.etag)
                #expect(last.header("If-Modified-Since") == metadata.lastModified)
            }
        }
    }

    @Test("Refreshing without validators but with identical bytes ends in cacheNotModified")
    func identicalBytesNotModified() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath)
            let first = try await Support.download(downloader, url).get()
            var context = WebImageContext()
            context.loaderCachedImage = first.image
            context.loaderCachedData = first.data
            let options = ImageDownloaderOptions([.refreshCached], hasCachedImage: true)
            #expect(
                await Support.download(downloader, url, options: options, context: context).error == .cacheNotModified)
            context.loaderCachedData = Data([1, 2, 3])
            #expect(await Support.download(downloader, url, options: options, context: context).value != nil)
        }
    }

    @Test("With a retry policy, a 503 with Retry-After is retried; without one it fails")
    func retryAfter() async throws {
        var config = ImageDownloaderConfig()
        config.retryPolicy = .exponential(maxAttempts: 3)
        try await Support.withOrigin(config: config) { origin, downloader in
            let url = origin.url(Support.pngPath + "?fail=1&failStatus=503&retryAfter=0")
            #expect(await Support.download(downloader, url).value != nil)
            #expect(origin.requestCount(path: Support.pngPath) == 2)
            let notFound = origin.url("/missing.png")
            #expect(await Support.download(downloader, notFound).error == .invalidDownloadStatusCode(404))
            #expect(origin.requestCount(path: "/missing.png") == 1)
        }
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath + "?fail=1&failStatus=503&retryAfter=0")
            #expect(await Support.download(downloader, url).error == .invalidDownloadStatusCode(503))
            #expect(origin.requestCount(path: Support.pngPath) == 1)
        }
    }

    @Test("A cancel during the retry wait ends the caller at once")
    func cancelDuringRetryWait() async throws {
        var config = ImageDownloaderConfig()
        config.retryPolicy = .exponential(maxAttempts: 3)
        try await Support.withOrigin(config: config) { origin, downloader in
            let url = origin.url(Support.pngPath + "?fail=2&failStatus=503&retryAfter=20")
            let recorder = ResultRecorder()
            let token = downloader.downloadImage(with: url, completion: recorder.completion)
            #expect(await eventually { origin.requestCount(path: Support.pngPath) == 1 })
            token?.cancel()
            #expect(await recorder.result().error == .cancelled)
            #expect(await eventually { downloader.currentDownloadCount == 0 })
            #expect(downloader.currentDownloadCount == 0)
            #expect(origin.requestCount(path: Support.pngPath) == 1)
        }
    }

    @Test("maxResponseSize fails up front by Content-Length and by counting a chunked body")
    func maxResponseSize() async throws {
        var config = ImageDownloaderConfig()
        config.maxResponseSize = 1000
        try await Support.withOrigin(config: config) { origin, downloader in
            for query in ["", "?chunked=1", "?gzip=1"] {
                let error = try #require(await Support.download(downloader, origin.url(Support.jpegPath + query)).error)
                #expect(error.transferKind == .responseTooLarge)
            }
            #expect(await Support.download(downloader, origin.url("/bytes/900")).error?.code == 1001)
        }
    }

    @Test("An image whose header shows too many pixels is aborted before the whole body arrives")
    func pixelLimitEarlyAbort() async throws {
        // The origin makes the 1500×1500 PNG before it sends a byte: under AddressSanitizer that
        // takes longer than the default 15 s without data.
        var config = ImageDownloaderConfig()
        config.downloadTimeout = 120
        try await Support.withOrigin(config: config) { origin, downloader in
            // Distinct URLs for the same image: no caller may join another's transfer.
            func url(_ caller: Int) -> URL {
                origin.url("/generated/1500x1500.png?seed=7&drip=8192:2&caller=\(caller)")
            }
            let total = try await downloader.downloadData(with: url(0)).count
            #expect(total > 64 * 1024)
            var context = WebImageContext()
            var decode = ImageDecodeOptions()
            decode.maxPixelCount = 1000
            context.imageDecodeOptions = decode
            let recorder = ResultRecorder()
            downloader.downloadImage(
                with: url(1), context: context, progress: recorder.progress, completion: recorder.completion)
            #expect(await recorder.result().error == .imageTooLarge(width: 1500, height: 1500, limit: 1000))
            let received = recorder.progressReports.map(\.received).max() ?? 0
            #expect(received > 0 && received < total)
            // A caller that asks for a thumbnail may be served by a reducing decoder: no early abort.
            context.imageThumbnailPixelSize = PixelSize(width: 20, height: 20)
            let thumbnail = ResultRecorder()
            downloader.downloadImage(
                with: url(2), context: context, progress: thumbnail.progress, completion: thumbnail.completion)
            _ = await thumbnail.result()
            #expect(thumbnail.progressReports.last?.received == total)
        }
    }
}
