import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

/// The idle timeout measures the server's silence only: its clock starts when a request is
/// handed to the HTTP client, is stamped where the bytes arrive, and stops while the transfer's
/// own task holds the response.
@Suite("ImageDownloader: the idle clock runs only while an attempt waits for its server")
struct DownloaderIdleClockTests {
    typealias Support = DownloaderTestSupport

    private func timeout(_ seconds: TimeInterval) -> ImageDownloaderConfig {
        var config = ImageDownloaderConfig()
        config.downloadTimeout = seconds
        return config
    }

    @Test("An attempt's clock starts stopped, runs from a touch, and stops again on pause")
    func clockStates() async throws {
        let activity = IdleActivity()
        try await Task.sleep(nanoseconds: 30_000_000)
        #expect(activity.idleNanoseconds == 0)
        activity.touch()
        try await Task.sleep(nanoseconds: 30_000_000)
        #expect(activity.idleNanoseconds >= 25_000_000)
        activity.pause()
        #expect(activity.idleNanoseconds == 0)
    }

    @Test("A paused attempt never times out; once touched, it times out after its limit")
    func pausedAttemptsNeverExpire() async throws {
        let timeouts = IdleTimeouts()
        let activity = IdleActivity()
        let fired = Locked(0)
        let id = timeouts.watch(activity, timeout: 0.05) { fired.withLock { $0 += 1 } }
        defer { timeouts.unwatch(id) }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(fired.withLock { $0 } == 0)
        #expect(!activity.timedOut)
        activity.touch()
        #expect(await eventually(timeout: .seconds(5)) { fired.withLock { $0 } == 1 })
        #expect(activity.timedOut)
        #expect(!activity.exceededDeadline)
    }

    @Test("A response modifier slower than the timeout does not time the download out")
    func slowResponseModifier() async throws {
        try await Support.withOrigin(config: timeout(0.3)) { origin, downloader in
            downloader.responseModifier = ImageDownloadResponseModifier { response in
                try? await Task.sleep(nanoseconds: 900_000_000)
                return response
            }
            let result = try await Support.download(downloader, origin.url(Support.pngPath)).get()
            #expect(result.data == (try Fixtures.data("png/rgb8.png")))
        }
    }

    @Test("A body that never comes after a response modifier let it in still times out")
    func stallAfterModifierTimesOut() async throws {
        try await Support.withOrigin(config: timeout(0.3)) { origin, downloader in
            let modified = Locked(0)
            downloader.responseModifier = ImageDownloadResponseModifier { response in
                modified.withLock { $0 += 1 }
                return response
            }
            // The origin sends the head, then nothing.
            let error = try #require(await Support.download(downloader, origin.url(Support.pngPath + "?stall=1")).error)
            #expect(error.transferKind == .timedOut)
            #expect(modified.withLock { $0 } == 1)
        }
    }

    @Test("A request validator slower than the timeout does not time the download out")
    func slowRequestValidator() async throws {
        var config = timeout(0.3)
        config.requestValidator = { _ in
            try? await Task.sleep(nanoseconds: 900_000_000)
            return .resolveAsUsual
        }
        try await Support.withOrigin(config: config) { origin, downloader in
            let data = try await downloader.downloadData(with: origin.url(Support.pngPath))
            #expect(data == (try Fixtures.data("png/rgb8.png")))
        }
    }

    @Test("A redirect whose body passes the 64 KiB read for reuse is still followed")
    func largeRedirectBody() async throws {
        try await Support.withOrigin { origin, downloader in
            let body = Data(repeating: 0x41, count: 3 * ResponseReader.discardLimit)
            origin.register(
                path: "/moved", body: body, contentType: "text/plain", headers: [("Location", Support.pngPath)])
            let data = try await downloader.downloadData(with: origin.url("/moved?status=302"))
            #expect(data == (try Fixtures.data("png/rgb8.png")))
            #expect(origin.requestCount(path: "/moved") == 1)
            #expect(origin.requestCount(path: Support.pngPath) == 1)
        }
    }
}
