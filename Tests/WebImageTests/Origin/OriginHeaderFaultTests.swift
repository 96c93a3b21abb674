import Foundation
import Testing
import WebImageTestOrigin

@Suite("Test origin response-shaping parameters")
struct OriginHeaderFaultTests {
    @Test("status=CODE answers with that code and the resource's bytes, except 204 and 304")
    func status() async throws {
        try await withOrigin { origin in
            let (data, response) = try await OriginClient.get(origin.url("/bytes/64?status=500"))
            #expect(response.statusCode == 500)
            #expect(data.count == 64)
            let noContent = await RawHTTP.get(port: origin.port, "/bytes/64?status=204")
            #expect(noContent.statusCode == 204)
            #expect(noContent.body.isEmpty)
            #expect(noContent.header("Content-Length") == nil)
        }
    }

    @Test("type=MIME replaces the Content-Type, and an empty type removes it")
    func typeOverride() async throws {
        try await withOrigin { origin in
            let (_, response) = try await OriginClient.get(origin.url("/fixtures/png/rgba8.png?type=text/html"))
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html")
            let raw = await RawHTTP.get(port: origin.port, "/fixtures/png/rgba8.png?type=")
            #expect(raw.statusCode == 200)
            #expect(raw.header("Content-Type") == nil)
            #expect(raw.body == Array(try Fixtures.data("png/rgba8.png")))
        }
    }

    @Test("etag=TAG sends the ETag and answers 304 without a body when If-None-Match matches")
    func etag() async throws {
        try await withOrigin { origin in
            let url = origin.url("/bytes/100?etag=v1")
            let (data, response) = try await OriginClient.get(url)
            #expect(response.value(forHTTPHeaderField: "ETag") == "\"v1\"")
            #expect(data.count == 100)
            let matched = await RawHTTP.get(
                port: origin.port, "/bytes/100?etag=v1", headers: ["If-None-Match: \"v0\", \"v1\""])
            #expect(matched.statusCode == 304)
            #expect(matched.body.isEmpty)
            #expect(matched.header("ETag") == "\"v1\"")
            let stale = await RawHTTP.get(port: origin.port, "/bytes/100?etag=v2", headers: ["If-None-Match: \"v1\""])
            #expect(stale.statusCode == 200)
            #expect(stale.body.count == 100)
        }
    }

    @Test("lastModified=1 answers 304 when If-Modified-Since is the same or later, 200 when earlier")
    func lastModified() async throws {
        try await withOrigin { origin in
            let target = "/bytes/10?lastModified=1"
            let plain = await RawHTTP.get(port: origin.port, target)
            #expect(plain.header("Last-Modified") == "Sat, 01 Jan 2022 00:00:00 GMT")
            let same = await RawHTTP.get(
                port: origin.port, target, headers: ["If-Modified-Since: Sat, 01 Jan 2022 00:00:00 GMT"])
            #expect(same.statusCode == 304)
            let later = await RawHTTP.get(
                port: origin.port, target, headers: ["If-Modified-Since: Mon, 05 Jun 2023 10:00:00 GMT"])
            #expect(later.statusCode == 304)
            let earlier = await RawHTTP.get(
                port: origin.port, target, headers: ["If-Modified-Since: Fri, 31 Dec 2021 23:59:59 GMT"])
            #expect(earlier.statusCode == 200)
            let garbled = await RawHTTP.get(port: origin.port, target, headers: ["If-Modified-Since: yesterday"])
            #expect(garbled.statusCode == 200)
            let etagWins = await RawHTTP.get(
                port: origin.port, "/bytes/10?lastModified=1&etag=new",
                headers: ["If-None-Match: \"old\"", "If-Modified-Since: Sat, 01 Jan 2022 00:00:00 GMT"])
            #expect(etagWins.statusCode == 200)
        }
    }

    @Test("setCookie, cacheControl and header= add their headers, URL-decoded")
    func addedHeaders() async throws {
        try await withOrigin { origin in
            let target =
                "/bytes/4?setCookie=a%3D1%3B%20Path%3D%2F&cacheControl=max-age%3D60&header=X-One%3A%201&header=X-Two:2"
            let raw = await RawHTTP.get(port: origin.port, target)
            #expect(raw.statusCode == 200)
            #expect(raw.header("Set-Cookie") == "a=1; Path=/")
            #expect(raw.header("Cache-Control") == "max-age=60")
            #expect(raw.header("X-One") == "1")
            #expect(raw.header("X-Two") == "2")
        }
    }

    @Test("requireCookie answers 403 without the cookie and 200 with it")
    func requireCookie() async throws {
        try await withOrigin { origin in
            let url = origin.url("/bytes/8?requireCookie=session%3Dabc")
            #expect(try await OriginClient.get(url).1.statusCode == 403)
            #expect(try await OriginClient.get(url, headers: ["Cookie": "session=wrong"]).1.statusCode == 403)
            let (data, response) = try await OriginClient.get(url, headers: ["Cookie": "x=1; session=abc"])
            #expect(response.statusCode == 200)
            #expect(data.count == 8)
        }
    }

    @Test("auth=USER:PASS challenges with 401 and WWW-Authenticate, and serves with the right credentials")
    func basicAuth() async throws {
        // Raw sockets for the challenges: FoundationNetworking on Linux never completes a request
        // answered by a Basic challenge when no credential is available.
        try await withOrigin { origin in
            let target = "/bytes/8?auth=user:secret"
            let challenged = await RawHTTP.get(port: origin.port, target)
            #expect(challenged.statusCode == 401)
            #expect(challenged.header("WWW-Authenticate") == "Basic realm=\"origin\"")
            let wrong = Data("user:guess".utf8).base64EncodedString()
            let refused = await RawHTTP.get(port: origin.port, target, headers: ["Authorization: Basic \(wrong)"])
            #expect(refused.statusCode == 401)
            let right = Data("user:secret".utf8).base64EncodedString()
            let (data, response) = try await OriginClient.get(
                origin.url(target), headers: ["Authorization": "Basic \(right)"])
            #expect(response.statusCode == 200)
            #expect(data.count == 8)
        }
    }
}
