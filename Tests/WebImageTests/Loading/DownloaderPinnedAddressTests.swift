import AsyncHTTPClient
import Foundation
import NIOCore
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
        #expect(clients.openCount == 0)
        #expect(clients.lease(host: "a.invalid", address: "127.0.0.1") == nil)
    }

    @Test func aReturnedClientIsReusedForItsHostAndAddressUntilIdleForItsLifetime() async throws {
        let clock = SteppedClock()
        let clients = PinnedClients(
            configuration: ImageDownloader.clientConfiguration(.default), idleLifetime: .seconds(60),
            now: { clock.now })
        let first = try #require(clients.lease(host: "a.invalid", address: "127.0.0.1"))
        clients.release(first)
        clock.advance(by: .seconds(59))
        let reused = try #require(clients.lease(host: "a.invalid", address: "127.0.0.1"))
        #expect(reused.client === first.client)
        let otherAddress = try #require(clients.lease(host: "a.invalid", address: "127.0.0.2"))
        #expect(otherAddress.client !== first.client)
        clients.release(reused)
        clients.release(otherAddress)
        clock.advance(by: .seconds(61))
        // Any lease or return shuts down the clients idle for longer than their lifetime.
        let fresh = try #require(clients.lease(host: "b.invalid", address: "127.0.0.1"))
        #expect(clients.count == 1)
        #expect(await eventually { clients.openCount == 1 })
        clients.release(fresh)
        await clients.shutdown()
        #expect(clients.openCount == 0)
    }

    /// Shutting down while a request is under way: the idle client closes at once, the leased
    /// one serves its request to the end and closes when returned, and `shutdown()` returns only
    /// then, with every client it made closed.
    @Test func shutdownClosesALeasedClientOnlyAfterItsRequestEndsAndLeaksNone() async throws {
        try await withOrigin { origin in
            let clients = PinnedClients(configuration: ImageDownloader.clientConfiguration(.default))
            let idle = try #require(clients.lease(host: "idle.invalid", address: "127.0.0.1"))
            clients.release(idle)
            let busy = try #require(clients.lease(host: "busy.invalid", address: "127.0.0.1"))
            let shutdown = Task { await clients.shutdown() }
            #expect(await eventually { clients.openCount == 1 }, "the idle client is closed at once")
            #expect(clients.lease(host: "busy.invalid", address: "127.0.0.1") == nil)
            let request = HTTPClientRequest(url: "http://busy.invalid:\(origin.port)/fixtures/png/rgba8.png?delay=200")
            let response = try await busy.client.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(response.status == .ok)
            #expect(Data(body.readableBytesView) == (try Fixtures.data("png/rgba8.png")))
            #expect(clients.openCount == 1)
            clients.release(busy)
            await shutdown.value
            #expect(clients.openCount == 0)
            #expect(clients.count == 0)
        }
    }
}
