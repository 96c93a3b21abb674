import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

@Suite("ImageDownloader queue: order, priorities, concurrency, suspension")
struct DownloaderQueueTests {
    typealias Support = DownloaderTestSupport

    /// The `id=` of every request the origin saw for `path`, in arrival order.
    private func arrivalOrder(_ origin: TestOrigin, _ path: String) -> [String] {
        origin.requests(path: path).compactMap { request in
            URLComponents(string: request.uri)?.queryItems?.first { $0.name == "id" }?.value
        }
    }

    private func serialConfig(_ order: ImageDownloaderExecutionOrder = .fifo) -> ImageDownloaderConfig {
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = 1
        config.executionOrder = order
        return config
    }

    @Test("FIFO at concurrency 1 starts downloads in the order they were requested")
    func fifoOrder() async throws {
        try await Support.withOrigin(config: serialConfig()) { origin, downloader in
            let path = Support.pngPath
            let recorders = ["a", "b", "c", "d"].map { id in
                let recorder = ResultRecorder()
                downloader.downloadImage(with: origin.url("\(path)?id=\(id)&delay=50"), completion: recorder.completion)
                return recorder
            }
            for recorder in recorders { _ = await recorder.result() }
            #expect(arrivalOrder(origin, path) == ["a", "b", "c", "d"])
        }
    }

    @Test("LIFO at concurrency 1 starts the newest queued download next, including ones added mid-run")
    func lifoOrder() async throws {
        try await Support.withOrigin(config: serialConfig(.lifo)) { origin, downloader in
            let path = Support.pngPath
            let lateAdded = ResultRecorder()
            let urls = ["a", "b", "c", "d", "e"].map { origin.url("\(path)?id=\($0)&delay=50") }
            // When d starts (b and c still queued), e joins the queue: LIFO runs it before c and b.
            let addLate = Locked(true)
            let onStartOfD: ImageLoaderProgress = { _, _, _ in
                let first = addLate.withLock { pending in
                    defer { pending = false }
                    return pending
                }
                if first { downloader.downloadImage(with: urls[4], completion: lateAdded.completion) }
            }
            var recorders: [ResultRecorder] = []
            for index in 0..<4 {
                let recorder = ResultRecorder()
                downloader.downloadImage(
                    with: urls[index], progress: index == 3 ? onStartOfD : nil, completion: recorder.completion)
                recorders.append(recorder)
            }
            for recorder in recorders + [lateAdded] { _ = await recorder.result() }
            #expect(arrivalOrder(origin, path) == ["a", "d", "e", "c", "b"])
        }
    }

    @Test(
        "High priority runs before normal, normal before low; a high-priority caller joining raises a queued download")
    func priorities() async throws {
        try await Support.withOrigin(config: serialConfig()) { origin, downloader in
            let path = Support.pngPath
            func url(_ id: String) -> URL { origin.url("\(path)?id=\(id)&delay=50") }
            var recorders: [ResultRecorder] = []
            for (id, options) in [
                ("first", ImageDownloaderOptions()), ("low", .lowPriority), ("normal", []), ("high", .highPriority),
                ("raised", .lowPriority),
            ] as [(String, ImageDownloaderOptions)] {
                let recorder = ResultRecorder()
                downloader.downloadImage(with: url(id), options: options, completion: recorder.completion)
                recorders.append(recorder)
            }
            let joiner = ResultRecorder()
            downloader.downloadImage(with: url("raised"), options: .highPriority, completion: joiner.completion)
            for recorder in recorders + [joiner] { #expect(await recorder.result().value != nil) }
            #expect(arrivalOrder(origin, path) == ["first", "high", "raised", "normal", "low"])
        }
    }

    @Test("Downloads run one after another in one slot; cancelling the running one leaves the queued ones untouched")
    func cancellingOneOfASerialRunLeavesTheRest() async throws {
        try await Support.withOrigin(config: serialConfig()) { origin, downloader in
            let path = Support.pngPath
            var recorders: [ResultRecorder] = []
            var tokens: [ImageDownloadToken?] = []
            for index in 0..<8 {
                let recorder = ResultRecorder()
                // The fourth stalls until cancelled; the others arrive after a short delay.
                let fault = index == 3 ? "stall=1" : "delay=10"
                tokens.append(
                    downloader.downloadImage(
                        with: origin.url("\(path)?id=\(index)&\(fault)"), completion: recorder.completion))
                recorders.append(recorder)
            }
            for recorder in recorders[0..<3] { #expect(await recorder.result().value != nil) }
            #expect(await eventually { arrivalOrder(origin, path).count == 4 })
            tokens[3]?.cancel()
            #expect(await recorders[3].result().error == .cancelled)
            for recorder in recorders[4...] { #expect(await recorder.result().value != nil) }
            #expect(arrivalOrder(origin, path) == (0..<8).map(String.init))
            #expect(await eventually { downloader.currentDownloadCount == 0 })
            #expect(downloader.currentDownloadCount == 0)
        }
    }

    @Test("At most maxConcurrentDownloads run at once (3N delayed requests, N in flight)")
    func maxConcurrentRespected() async throws {
        var config = ImageDownloaderConfig()
        config.maxConcurrentDownloads = 2
        try await Support.withOrigin(config: config) { origin, downloader in
            let recorders = (0..<6).map { index in
                let recorder = ResultRecorder()
                downloader.downloadImage(
                    with: origin.url(Support.pngPath + "?id=\(index)&delay=150"), completion: recorder.completion)
                return recorder
            }
            #expect(downloader.currentDownloadCount == 6)
            for recorder in recorders { #expect(await recorder.result().value != nil) }
            #expect(origin.maxInFlightCount == 2)
            #expect(origin.requestCount(path: Support.pngPath) == 6)
        }
    }

    @Test("Raising maxConcurrentDownloads starts queued downloads at once; lowering lets running ones finish")
    func liveConcurrencyChange() async throws {
        try await Support.withOrigin(config: serialConfig()) { origin, downloader in
            let recorders = (0..<4).map { index in
                let recorder = ResultRecorder()
                downloader.downloadImage(
                    with: origin.url(Support.pngPath + "?id=\(index)&delay=6000"), completion: recorder.completion)
                return recorder
            }
            #expect(await eventually { origin.inFlightCount == 1 })
            downloader.maxConcurrentDownloads = 3
            #expect(downloader.maxConcurrentDownloads == 3)
            // The peak, not the current count: on a starved machine (sanitizers, parallel suites)
            // this poll may first run after the first response ended. Each response takes 6 s so
            // that the two queued downloads start before the first ends even when the machine is
            // so loaded that starting a request takes seconds (a CI run once saw only 2 at 3 s).
            #expect(await eventually { origin.maxInFlightCount == 3 })
            #expect(origin.maxInFlightCount == 3)
            downloader.maxConcurrentDownloads = 0  // clamps to 1
            #expect(downloader.maxConcurrentDownloads == 1)
            for recorder in recorders { #expect(await recorder.result().value != nil) }
            #expect(origin.maxInFlightCount == 3)
        }
    }

    @Test("A suspended downloader keeps downloads queued until resumed")
    func suspendAndResume() async throws {
        try await Support.withOrigin { origin, downloader in
            downloader.isSuspended = true
            #expect(downloader.isSuspended)
            let recorder = ResultRecorder()
            downloader.downloadImage(with: origin.url(Support.pngPath + "?id=held"), completion: recorder.completion)
            // A round trip through another downloader: had the held download started, its request
            // would have reached the origin by now.
            let other = ImageDownloader()
            #expect(await Support.download(other, origin.url(Support.jpegPath)).value != nil)
            await other.shutdown()
            #expect(origin.requestCount(path: Support.pngPath) == 0)
            #expect(downloader.currentDownloadCount == 1)
            #expect(recorder.terminal == nil)
            downloader.isSuspended = false
            #expect(await recorder.result().value != nil)
            #expect(origin.requestCount(path: Support.pngPath) == 1)
        }
    }

    @Test("A nil URL fails with invalidURL (1000) and returns no token")
    func nilURL() async throws {
        let downloader = ImageDownloader()
        let recorder = ResultRecorder()
        let token = downloader.downloadImage(with: nil, completion: recorder.completion)
        #expect(token == nil)
        let error = try #require(await recorder.result().error)
        #expect(error.code == 1000)
        await downloader.shutdown()
    }

    @Test("After shutdown, downloads fail with invalidDownloadOperation")
    func afterShutdown() async throws {
        let downloader = ImageDownloader()
        await downloader.shutdown()
        await downloader.shutdown()
        let result = await Support.download(downloader, URL(string: "http://127.0.0.1:9/x.png"))
        #expect(result.error?.code == 2000)
    }

    @Test("A new downloader is not the shared one; shutdown leaves the shared one working")
    func sharedInstance() async throws {
        let downloader = ImageDownloader()
        #expect(downloader !== ImageDownloader.shared)
        #expect(ImageDownloader.shared === ImageDownloader.shared)
        await ImageDownloader.shared.shutdown()
        let origin = try await TestOrigin.start(fixturesDirectory: Fixtures.directory)
        #expect(await Support.download(.shared, origin.url(Support.pngPath)).value != nil)
        try await origin.shutdown()
        await downloader.shutdown()
    }
}
