import Foundation
import Testing
import WebImageTestOrigin

@Suite("Test origin redirects and injected failures")
struct OriginRedirectAndRetryTests {
    @Test("redirect=N takes N hops, so the origin sees N+1 requests, and ends at the resource")
    func redirectHops() async throws {
        try await withOrigin { origin in
            let (data, response) = try await OriginClient.get(origin.url("/bytes/32?seed=4&redirect=3"))
            #expect(response.statusCode == 200)
            #expect(data.count == 32)
            #expect(origin.requestCount(path: "/bytes/32") == 4)
            let uris = origin.requests(path: "/bytes/32").map(\.uri)
            #expect(uris == (0...3).reversed().map { "/bytes/32?seed=4&redirect=\($0)" })
        }
    }

    @Test("a redirect answers 302 with an absolute Location on this origin")
    func redirectLocation() async throws {
        try await withOrigin { origin in
            let hop = await RawHTTP.get(port: origin.port, "/bytes/4?redirect=2&x=1")
            #expect(hop.statusCode == 302)
            #expect(hop.header("Location") == "http://127.0.0.1:\(origin.port)/bytes/4?redirect=1&x=1")
            let moved = await RawHTTP.get(port: origin.port, "/a?redirectTo=%2Fbytes%2F4%3Fseed%3D2")
            #expect(moved.statusCode == 302)
            #expect(moved.header("Location") == "http://127.0.0.1:\(origin.port)/bytes/4?seed=2")
            let loop = await RawHTTP.get(port: origin.port, "/a?redirectLoop=1")
            #expect(loop.header("Location") == "http://127.0.0.1:\(origin.port)/a?redirectLoop=1")
        }
    }

    @Test("redirectTo follows to another path; redirectTo off this origin is refused with 400")
    func redirectTo() async throws {
        try await withOrigin { origin in
            origin.register(path: "/target", body: Data("here".utf8), contentType: "text/plain")
            let (data, _) = try await OriginClient.get(origin.url("/start?redirectTo=%2Ftarget"))
            #expect(String(decoding: data, as: UTF8.self) == "here")
            #expect(origin.requestCount(path: "/start") == 1)
            #expect(origin.requestCount(path: "/target") == 1)
            for target in ["http%3A%2F%2Fexample.com%2F", "%2F%2Fexample.com%2Fx"] {
                #expect(await RawHTTP.get(port: origin.port, "/start?redirectTo=\(target)").statusCode == 400)
            }
        }
    }

    @Test("a redirect loop keeps redirecting until the client gives up")
    func redirectLoop() async throws {
        try await withOrigin { origin in
            await #expect(throws: (any Error).self) {
                _ = try await OriginClient.get(origin.url("/loop?redirectLoop=1"))
            }
            #expect(origin.requestCount(path: "/loop") > 5)
        }
    }

    @Test("fail=K answers the first K requests for a URL with 503, then serves it")
    func failThenSucceed() async throws {
        try await withOrigin { origin in
            let url = origin.url("/bytes/16?fail=2")
            #expect(try await OriginClient.get(url).1.statusCode == 503)
            #expect(try await OriginClient.get(url).1.statusCode == 503)
            let (data, response) = try await OriginClient.get(url)
            #expect(response.statusCode == 200)
            #expect(data.count == 16)
            #expect(try await OriginClient.get(origin.url("/bytes/16?fail=2&other")).1.statusCode == 503)
        }
    }

    @Test("failStatus picks the failure code and retryAfter adds Retry-After")
    func failStatusAndRetryAfter() async throws {
        try await withOrigin { origin in
            let (_, response) = try await OriginClient.get(origin.url("/bytes/16?fail=1&failStatus=429&retryAfter=7"))
            #expect(response.statusCode == 429)
            #expect(response.value(forHTTPHeaderField: "Retry-After") == "7")
            let (_, plain) = try await OriginClient.get(origin.url("/bytes/16?fail=1"))
            #expect(plain.statusCode == 503)
            #expect(plain.value(forHTTPHeaderField: "Retry-After") == nil)
        }
    }

    @Test("resetCounters restarts the fail=K tallies")
    func resetRestartsFailures() async throws {
        try await withOrigin { origin in
            let url = origin.url("/bytes/16?fail=1")
            var statuses: [Int] = []
            statuses.append(try await OriginClient.get(url).1.statusCode)
            statuses.append(try await OriginClient.get(url).1.statusCode)
            origin.resetCounters()
            statuses.append(try await OriginClient.get(url).1.statusCode)
            #expect(statuses == [503, 200, 503])
        }
    }
}
