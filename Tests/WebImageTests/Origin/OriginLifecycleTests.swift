import Foundation
import Testing
import WebImageTestOrigin

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Test origin lifecycle and bad parameters")
struct OriginLifecycleTests {
    @Test("the origin listens on 127.0.0.1 only, and its URLs point there")
    func loopbackOnly() async throws {
        try await withOrigin { origin in
            #expect(origin.host == "127.0.0.1")
            #expect(origin.port > 0)
            #expect(origin.baseURL.absoluteString == "http://127.0.0.1:\(origin.port)")
            #expect(origin.url("/a.png?delay=1").absoluteString == "http://127.0.0.1:\(origin.port)/a.png?delay=1")
            #expect(origin.url("b c").absoluteString == "http://127.0.0.1:\(origin.port)/b%20c")
        }
    }

    @Test("shutdown releases the port and closes open connections; a second shutdown does nothing")
    func shutdownReleasesPort() async throws {
        let origin = try await TestOrigin.start()
        let port = origin.port
        #expect(await RawHTTP.connectError(port: port) == 0)
        let stalled = RawHTTP.open(port: port, request: "GET /x?stall=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        defer { close(stalled) }
        #expect(await eventually { origin.inFlightCount == 1 })
        try await origin.shutdown()
        #expect(await RawHTTP.connectError(port: port) == ECONNREFUSED)
        // The stalled response's head arrived before the shutdown; after it comes EOF, not a timeout.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = 1
        while received > 0 { received = recv(stalled, &buffer, buffer.count, 0) }
        #expect(received == 0)
        try await origin.shutdown()
    }

    @Test("malformed or out-of-range fault parameters are answered with 400 and a message")
    func badParameters() async throws {
        try await withOrigin { origin in
            let targets = [
                "delay=soon", "delay=-1", "delay=999999999", "drip=10", "drip=0:5", "status=99", "status=600",
                "status=abc", "reset=-3", "redirect=x", "header=NoColon", "header=Bad%20Name:1",
                "header=X-A:%0D%0AInjected:1", "setCookie=a%0Ab", "requireCookie=novalue", "etag=a%22b", "seed=-1",
            ]
            for query in targets {
                let raw = await RawHTTP.get(port: origin.port, "/bytes/10?\(query)")
                #expect(raw.statusCode == 400, "\(query)")
                #expect(raw.header("Injected") == nil)
                #expect(!raw.body.isEmpty)
            }
            #expect(origin.inFlightCount == 0)
        }
    }

    @Test("a request the HTTP parser rejects gets 400, and the origin keeps serving")
    func malformedRequest() async throws {
        try await withOrigin { origin in
            let raw = await RawHTTP.exchange(port: origin.port, request: "NOT HTTP AT ALL\r\n\r\n", timeout: 5)
            #expect(raw.statusCode == 400 || raw.bytes.isEmpty)
            let (data, _) = try await OriginClient.get(origin.url("/bytes/3"))
            #expect(data.count == 3)
        }
    }
}
