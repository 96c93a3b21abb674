import AsyncHTTPClient
import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

/// A request validator that approves a URL with an address: the request connects there, with
/// the URL's own host name in `Host`, on every hop.
@Suite("ImageDownloader: requests pinned to the address a validator approved")
struct DownloaderPinnedAddressTests {
    static func pinningTo(_ address: String, seen: Locked<[String]>) -> ImageDownloaderConfig {
        var config = ImageDownloaderConfig()
        config.requestValidator = { url in
            seen.withLock { $0.append(url.absoluteString) }
            return url.host == address ? .resolveAsUsual : .connect(to: address)
        }
        return config
    }

    @Test func aNameWithNoDNSAnswerLoadsFromThePinnedAddressWithItsOwnHostHeader() async throws {
        let seen = Locked([String]())
        try await DownloaderTestSupport.withOrigin(config: Self.pinningTo("127.0.0.1", seen: seen)) {
            origin, downloader in
            let url = URL(string: "http://pinned.invalid:\(origin.port)/fixtures/png/rgba8.png")!
            let data = try await downloader.downloadData(with: url)
            #expect(data == (try Fixtures.data("png/rgba8.png")))
            let request = try #require(origin.requests(path: "/fixtures/png/rgba8.png").first)
            let host = request.headers.first { $0.0.lowercased() == "host" }?.1
            #expect(host == "pinned.invalid:\(origin.port)")
            #expect(seen.withLock { $0 } == [url.absoluteString])
        }
    }

    @Test func eachRedirectHopIsValidatedAndPinnedAgain() async throws {
        let seen = Locked([String]())
        try await DownloaderTestSupport.withOrigin(config: Self.pinningTo("127.0.0.1", seen: seen)) {
            origin, downloader in
            let target = "http://second.invalid:\(origin.port)/fixtures/png/rgba8.png"
            let url = URL(string: "http://first.invalid:\(origin.port)/hop?status=302&header=Location:\(target)")!
            let data = try await downloader.downloadData(with: url)
            #expect(data == (try Fixtures.data("png/rgba8.png")))
            #expect(seen.withLock { $0 } == [url.absoluteString, target])
        }
    }

    @Test func idleClientsBeyondTheCapacityAreShutDownOldestFirst() async throws {
        let clients = PinnedClients(configuration: ImageDownloader.clientConfiguration(.default), capacity: 2)
        let held = try #require(clients.lease(host: "a.invalid", address: "127.0.0.1"))
        for host in ["b.invalid", "c.invalid", "d.invalid"] {
            let lease = try #require(clients.lease(host: host, address: "127.0.0.1"))
            clients.release(lease)
        }
        // a is on loan, so it stays; of the idle ones only the newest fits.
        #expect(clients.count == 2)
        let again = try #require(clients.lease(host: "a.invalid", address: "127.0.0.1"))
        #expect(again.client === held.client)
        clients.release(again)
        clients.release(held)
        await clients.shutdown()
        #expect(clients.count == 0)
        #expect(clients.lease(host: "a.invalid", address: "127.0.0.1") == nil)
    }
}
