import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

/// Each of the origin's hostile behaviours, loaded through a manager over the real downloader
/// and a disk cache: the load ends with the right typed error, and afterwards no download,
/// load or connection is left behind and nothing was cached.
@Suite("Hostile servers end in the right error, leak nothing and cache nothing")
struct HostileServerTests {
    private static let jpegPath = ManagerOriginFixture.jpegPath
    private static let pngPath = ManagerOriginFixture.pngPath

    private func config(timeout: TimeInterval = 15, _ change: (inout ImageDownloaderConfig) -> Void = { _ in })
        -> ImageDownloaderConfig
    {
        var config = ImageDownloaderConfig()
        config.downloadTimeout = timeout
        change(&config)
        return config
    }

    /// Loads `url` through the fixture's manager, returns its error, and checks that the load
    /// left nothing running, no connection open at the origin and nothing in either cache.
    private func failure(_ fixture: ManagerOriginFixture, _ url: URL) async throws -> WebImageError {
        let error = try #require(
            await loadError { () throws(WebImageError) in try await fixture.manager.loadImage(with: url) })
        #expect(
            await eventually {
                fixture.downloader.currentDownloadCount == 0 && !fixture.manager.isRunning
                    && fixture.origin.inFlightCount == 0
            })
        #expect(fixture.downloader.currentDownloadCount == 0, "a download outlived its load")
        #expect(!fixture.manager.isRunning, "the manager still runs a load")
        #expect(fixture.origin.inFlightCount == 0, "the origin still holds a request open")
        let key = fixture.manager.cacheKey(for: url)
        #expect(await fixture.cache.containsImage(forKey: key) == .none)
        #expect(await fixture.cache.totalDiskCount() == 0)
        return error
    }

    @Test("A server that stalls forever: timedOut after the download timeout")
    func stallForever() async throws {
        try await ManagerOriginFixture.run(config: config(timeout: 0.5)) { fixture in
            let started = ContinuousClock.now
            let error = try await failure(fixture, fixture.origin.url(Self.jpegPath + "?stall=1"))
            #expect(error.transferKind == .timedOut)
            // Bounded, with room for a machine slowed down by sanitizers and parallel suites.
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test("A server that drips one byte a second: timedOut by the resource timeout, though never idle")
    func dripOneByteASecond() async throws {
        let dripping = config(timeout: 5) { $0.resourceTimeout = 2 }
        try await ManagerOriginFixture.run(config: dripping) { fixture in
            let started = ContinuousClock.now
            let error = try await failure(fixture, fixture.origin.url(Self.jpegPath + "?drip=1:1000"))
            #expect(error.transferKind == .timedOut)
            #expect(error.localizedDescription.contains("not complete after 2"))
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test("A connection reset mid-body: connectionLost")
    func resetMidBody() async throws {
        try await ManagerOriginFixture.run { fixture in
            let error = try await failure(fixture, fixture.origin.url(Self.jpegPath + "?reset=2000"))
            #expect(error.transferKind == .connectionLost)
        }
    }

    @Test("More than the maximum response size, declared, chunked or gzip-expanded: responseTooLarge")
    func overMaximumResponseSize() async throws {
        try await ManagerOriginFixture.run(config: config { $0.maxResponseSize = 4096 }) { fixture in
            for query in ["?size=declared", "?chunked=1", "?gzip=1"] {
                let error = try await failure(fixture, fixture.origin.url(Self.jpegPath + query))
                #expect(error.transferKind == .responseTooLarge, "\(query)")
            }
        }
    }

    @Test("A body shorter than its Content-Length: connectionLost")
    func contentLengthTooLong() async throws {
        try await ManagerOriginFixture.run { fixture in
            let error = try await failure(fixture, fixture.origin.url(Self.jpegPath + "?short=1000"))
            #expect(error.transferKind == .connectionLost)
        }
    }

    @Test(
        "A body longer than its Content-Length: the declared bytes are a truncated image, and the next load is unharmed"
    )
    func contentLengthTooShort() async throws {
        try await ManagerOriginFixture.run { fixture in
            let error = try await failure(fixture, fixture.origin.url(Self.pngPath + "?long=40"))
            #expect(error.code == WebImageError.badImageData("").code)
            // The 40 stray bytes sit where the next response should begin; they must not
            // become part of another image.
            for index in 0..<3 {
                let result = try await fixture.manager.loadImage(
                    with: fixture.origin.url(Self.jpegPath + "?n=\(index)"))
                #expect(result.data == (try Fixtures.data("jpeg/photo_800x600.jpg")))
            }
        }
    }

    @Test("500 then 200: the retry policy retries and the image loads; without it, 500 and not blocked")
    func serverErrorThenSuccess() async throws {
        let retrying = config { $0.retryPolicy = ImageDownloadRetryPolicy(maxAttempts: 3, baseDelay: 0.01, jitter: 0) }
        try await ManagerOriginFixture.run(config: retrying) { fixture in
            let url = fixture.origin.url(Self.pngPath + "?fail=1&failStatus=500")
            let result = try await fixture.manager.loadImage(with: url)
            #expect(result.image.width > 0)
            #expect(fixture.origin.requestCount(path: Self.pngPath) == 2)
        }
        try await ManagerOriginFixture.run { fixture in
            let url = fixture.origin.url(Self.pngPath + "?fail=1&failStatus=500")
            let error = try await failure(fixture, url)
            #expect(error == .invalidDownloadStatusCode(500))
            // Not on the failed-URL list: the next load asks again and gets the image.
            let retried = try await fixture.manager.loadImage(with: url)
            #expect(retried.image.width > 0)
            #expect(fixture.origin.requestCount(path: Self.pngPath) == 2)
        }
    }

    @Test("A redirect loop: tooManyRedirects after the limit, and blocked as SDWebImage's code does")
    func redirectLoop() async throws {
        try await ManagerOriginFixture.run(config: config { $0.maxRedirects = 5 }) { fixture in
            let url = fixture.origin.url(Self.pngPath + "?redirectLoop=1")
            let error = try await failure(fixture, url)
            #expect(error.transferKind == .tooManyRedirects)
            #expect(fixture.origin.requestCount(path: Self.pngPath) == 6)
            // NSURLErrorHTTPTooManyRedirects is not among SDWebImage's transient network errors.
            #expect(fixture.downloader.shouldBlockFailedURL(url, error: error, options: [], context: nil))
        }
    }
}
