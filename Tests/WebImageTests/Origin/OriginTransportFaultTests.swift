import Foundation
import Testing
import WebImageTestOrigin

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Test origin transport faults")
struct OriginTransportFaultTests {
    @Test("delay=MS holds the response at least that long")
    func delay() async throws {
        try await withOrigin { origin in
            let (response, elapsed) = try await elapsedMilliseconds {
                try await OriginClient.get(origin.url("/bytes/10?delay=150"))
            }
            #expect(response.1.statusCode == 200)
            #expect(elapsed >= 150)
        }
    }

    @Test("drip=BYTES:MS sends the whole body with its Content-Length, in spaced chunks")
    func drip() async throws {
        try await withOrigin { origin in
            let plain = await RawHTTP.get(port: origin.port, "/bytes/300?seed=9")
            let (dripped, elapsed) = await elapsedMilliseconds {
                await RawHTTP.get(port: origin.port, "/bytes/300?seed=9&drip=100:60")
            }
            #expect(dripped.header("Content-Length") == "300")
            #expect(dripped.body == plain.body)
            #expect(elapsed >= 120)
        }
    }

    @Test("chunked=1 drops Content-Length and frames the same body in several chunks")
    func chunked() async throws {
        try await withOrigin { origin in
            let plain = await RawHTTP.get(port: origin.port, "/bytes/40000?seed=2")
            let raw = await RawHTTP.get(port: origin.port, "/bytes/40000?seed=2&chunked=1")
            #expect(raw.header("Transfer-Encoding") == "chunked")
            #expect(raw.header("Content-Length") == nil)
            #expect(raw.dechunkedBody == plain.body)
            #expect(raw.body.count > plain.body.count)
            let (data, _) = try await OriginClient.get(origin.url("/bytes/40000?seed=2&chunked=1"))
            #expect(Array(data) == plain.body)
        }
    }

    @Test("short=N declares the full Content-Length, sends N bytes and closes")
    func shortBody() async throws {
        try await withOrigin { origin in
            let raw = await RawHTTP.get(port: origin.port, "/bytes/1000?short=400")
            #expect(raw.header("Content-Length") == "1000")
            #expect(raw.body.count == 400)
            #expect(raw.error == nil)
            await #expect(throws: (any Error).self) {
                _ = try await OriginClient.get(origin.url("/bytes/1000?short=400"))
            }
        }
    }

    @Test("reset=N sends N body bytes, then resets the connection")
    func resetMidBody() async throws {
        try await withOrigin { origin in
            let raw = await RawHTTP.get(port: origin.port, "/bytes/100000?reset=5000")
            #expect(raw.statusCode == 200)
            #expect(raw.error == ECONNRESET)
            #expect(raw.body.count <= 5000)
            await #expect(throws: (any Error).self) {
                _ = try await OriginClient.get(origin.url("/bytes/100000?reset=5000"))
            }
        }
    }

    @Test("stall=1 sends the head and then nothing, so a client with a short timeout gives up")
    func stall() async throws {
        try await withOrigin { origin in
            let raw = await RawHTTP.get(port: origin.port, "/bytes/100?stall=1", timeout: 0.3)
            #expect(raw.statusCode == 200)
            #expect(raw.error == EAGAIN || raw.error == EWOULDBLOCK)
            #expect(raw.body.isEmpty)
            await #expect(throws: (any Error).self) {
                _ = try await OriginClient.get(origin.url("/bytes/100?stall=1"), timeout: 0.5)
            }
        }
    }

    @Test("gzip=1 compresses when the client accepts gzip, and the body decompresses to the original")
    func gzip() async throws {
        try await withOrigin { origin in
            let plain = await RawHTTP.get(port: origin.port, "/garbage/5000")
            let raw = await RawHTTP.get(port: origin.port, "/garbage/5000?gzip=1", headers: ["Accept-Encoding: gzip"])
            #expect(raw.header("Content-Encoding") == "gzip")
            #expect(raw.header("Content-Length") == String(raw.body.count))
            #expect(raw.body.starts(with: [0x1F, 0x8B]))
            #expect(raw.body.count < plain.body.count)
            let (data, response) = try await OriginClient.get(origin.url("/garbage/5000?gzip=1"))
            #expect(response.value(forHTTPHeaderField: "Content-Encoding") == "gzip")
            #expect(Array(data) == plain.body)
        }
    }

    @Test("deflate=1 uses the zlib format, and a client that accepts neither gets the plain body")
    func deflateAndIdentity() async throws {
        try await withOrigin { origin in
            let plain = await RawHTTP.get(port: origin.port, "/garbage/5000")
            let raw = await RawHTTP.get(
                port: origin.port, "/garbage/5000?deflate=1", headers: ["Accept-Encoding: deflate"])
            #expect(raw.header("Content-Encoding") == "deflate")
            #expect(raw.body.first == 0x78)
            let (data, _) = try await OriginClient.get(origin.url("/garbage/5000?deflate=1"))
            #expect(Array(data) == plain.body)
            let identity = await RawHTTP.get(port: origin.port, "/garbage/5000?gzip=1&deflate=1")
            #expect(identity.header("Content-Encoding") == nil)
            #expect(identity.body == plain.body)
            let refused = await RawHTTP.get(
                port: origin.port, "/garbage/5000?gzip=1", headers: ["Accept-Encoding: gzip;q=0"])
            #expect(refused.header("Content-Encoding") == nil)
        }
    }

    @Test("close=1 closes a keep-alive connection after the response")
    func closeAfterResponse() async throws {
        try await withOrigin { origin in
            let request = "GET /bytes/10?close=1 HTTP/1.1\r\nHost: x\r\n\r\n"
            let raw = await RawHTTP.exchange(port: origin.port, request: request, timeout: 5)
            #expect(raw.header("Connection") == "close")
            #expect(raw.error == nil)
            #expect(raw.body.count == 10)
        }
    }
}
