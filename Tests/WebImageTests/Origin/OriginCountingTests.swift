import Foundation
import Testing
import WebImageTestOrigin

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Test origin request counting")
struct OriginCountingTests {
    @Test("requests are counted per path with the query ignored, and recorded with method, uri and headers")
    func countsAndRecords() async throws {
        try await withOrigin { origin in
            _ = try await OriginClient.get(origin.url("/generated/8x8.png?seed=1"), headers: ["X-Probe": "a"])
            _ = try await OriginClient.get(origin.url("/generated/8x8.png?seed=2"))
            _ = try await OriginClient.get(origin.url("/nowhere"))
            #expect(origin.requestCount(path: "/generated/8x8.png") == 2)
            #expect(origin.requestCount(path: "/nowhere") == 1)
            #expect(origin.requestCount(path: "/other") == 0)
            #expect(origin.totalRequestCount == 3)
            let recorded = origin.requests(path: "/generated/8x8.png")
            #expect(recorded.map(\.uri) == ["/generated/8x8.png?seed=1", "/generated/8x8.png?seed=2"])
            #expect(recorded.first?.method == "GET")
            #expect(recorded.first?.header("x-probe") == "a")
            #expect(recorded.last?.header("X-Probe") == nil)
        }
    }

    @Test("resetCounters forgets counts and records but keeps registered bodies")
    func resetCounters() async throws {
        try await withOrigin { origin in
            origin.register(path: "/k", body: Data([7]), contentType: nil)
            _ = try await OriginClient.get(origin.url("/k"))
            origin.resetCounters()
            #expect(origin.requestCount(path: "/k") == 0)
            #expect(origin.totalRequestCount == 0)
            #expect(origin.requests(path: "/k").isEmpty)
            #expect(origin.maxInFlightCount == 0)
            #expect(try await OriginClient.get(origin.url("/k")).0 == Data([7]))
            #expect(origin.requestCount(path: "/k") == 1)
        }
    }

    @Test("concurrent delayed requests are all in flight at once, and none after they finish")
    func inFlightPeakWithDelays() async throws {
        try await withOrigin { origin in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<3 {
                    group.addTask {
                        try await OriginClient.get(origin.url("/bytes/10?seed=\(index)&delay=400")).1.statusCode
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect(origin.maxInFlightCount == 3)
            #expect(await eventually { origin.inFlightCount == 0 })
        }
    }

    @Test("a stalled request stays in flight until the client closes the connection")
    func stalledRequestsStayInFlight() async throws {
        try await withOrigin { origin in
            let request = "GET /bytes/10?stall=1 HTTP/1.1\r\nHost: x\r\n\r\n"
            let sockets = (0..<4).map { _ in RawHTTP.open(port: origin.port, request: request) }
            #expect(sockets.allSatisfy { $0 >= 0 })
            #expect(await eventually { origin.inFlightCount == 4 })
            #expect(origin.maxInFlightCount == 4)
            for socket in sockets { close(socket) }
            #expect(await eventually { origin.inFlightCount == 0 })
            #expect(origin.maxInFlightCount == 4)
        }
    }

    @Test("one keep-alive connection carries several requests, answered in order")
    func keepAlive() async throws {
        try await withOrigin { origin in
            origin.register(path: "/a", body: Data("first".utf8), contentType: "text/plain")
            origin.register(path: "/b", body: Data("second".utf8), contentType: "text/plain")
            let request =
                "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b?delay=20 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let raw = await RawHTTP.exchange(port: origin.port, request: request)
            let text = String(decoding: raw.bytes, as: UTF8.self)
            #expect(raw.error == nil)
            #expect(text.components(separatedBy: "HTTP/1.1 200 OK").count == 4)
            let first = try #require(text.range(of: "first"))
            let second = try #require(text.range(of: "second"))
            #expect(first.lowerBound < second.lowerBound)
            #expect(origin.requestCount(path: "/a") == 2)
            #expect(origin.requestCount(path: "/b") == 1)
        }
    }
}
