import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@Suite("Test origin routes")
struct OriginRouteTests {
    @Test("a fixture is served with its bytes and the Content-Type of its extension")
    func servesFixture() async throws {
        try await withOrigin { origin in
            for (path, type) in [("jpeg/baseline.jpg", "image/jpeg"), ("gif/static.gif", "image/gif")] {
                let (data, response) = try await OriginClient.get(origin.url("/fixtures/\(path)"))
                #expect(response.statusCode == 200)
                #expect(response.value(forHTTPHeaderField: "Content-Type") == type)
                #expect(data == (try Fixtures.data(path)))
            }
        }
    }

    @Test("a missing fixture, a path escaping the fixtures directory and an unknown route are 404")
    func missingIsNotFound() async throws {
        try await withOrigin { origin in
            for target in [
                "/fixtures/png/nope.png", "/fixtures/../WebImageTests/Support/Fixtures.swift",
                "/fixtures/%2E%2E/WebImageTests/Support/Fixtures.swift", "/nowhere",
            ] {
                let raw = await RawHTTP.get(port: origin.port, target)
                #expect(raw.statusCode == 404, "\(target)")
                #expect(String(decoding: raw.body, as: UTF8.self).contains("not found"))
            }
        }
    }

    @Test("a generated image decodes with WebImage to the asked size in every format")
    func generatedImagesDecode() async throws {
        try await withOrigin { origin in
            for (ext, format) in [("png", ImageFormat.png), ("jpeg", .jpeg), ("webp", .webp), ("gif", .gif)] {
                let (data, response) = try await OriginClient.get(origin.url("/generated/40x24.\(ext)?seed=3"))
                #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/\(ext)")
                let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
                #expect(image.format == format)
                #expect(image.width == 40 && image.height == 24)
            }
        }
    }

    @Test("generated content is the same for the same seed and differs for another")
    func generatedIsDeterministic() async throws {
        try await withOrigin { origin in
            let first = try await OriginClient.get(origin.url("/generated/16x16.png?seed=7")).0
            let again = try await OriginClient.get(origin.url("/generated/16x16.png?seed=7")).0
            let other = try await OriginClient.get(origin.url("/generated/16x16.png?seed=8")).0
            #expect(first == again)
            #expect(first != other)
            let bytes = try await OriginClient.get(origin.url("/bytes/1000?seed=5")).0
            let bytesAgain = try await OriginClient.get(origin.url("/bytes/1000?seed=5")).0
            #expect(bytes.count == 1000)
            #expect(bytes == bytesAgain)
            #expect(Set(bytes).count > 200)
        }
    }

    @Test("a generated size of zero, above 4096 or malformed, and an unknown format, are 400")
    func badGeneratedSizes() async throws {
        try await withOrigin { origin in
            for name in ["0x10.png", "4097x1.png", "10x10.bmp", "10.png", "x10.png", "10x10"] {
                let raw = await RawHTTP.get(port: origin.port, "/generated/\(name)")
                #expect(raw.statusCode == 400, "\(name)")
            }
            #expect(await RawHTTP.get(port: origin.port, "/bytes/67108865").statusCode == 400)
            #expect(await RawHTTP.get(port: origin.port, "/bytes/-1").statusCode == 400)
        }
    }

    @Test("garbage is served as image/jpeg and no decoder accepts it")
    func garbageIsNoImage() async throws {
        try await withOrigin { origin in
            let (data, response) = try await OriginClient.get(origin.url("/garbage/3000"))
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
            #expect(data.count == 3000)
            #expect(!ImageCodersManager.shared.canDecode(data))
        }
    }

    @Test("a registered body is served with its type and headers, and registering again replaces it")
    func registeredBody() async throws {
        try await withOrigin { origin in
            origin.register(
                path: "/r.bin", body: Data([1, 2, 3]), contentType: "application/x-test", headers: [("X-Tag", "one")])
            let (data, response) = try await OriginClient.get(origin.url("/r.bin?ignored=1"))
            #expect(data == Data([1, 2, 3]))
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/x-test")
            #expect(response.value(forHTTPHeaderField: "X-Tag") == "one")
            origin.register(path: "/r.bin", body: Data([9]), contentType: nil)
            let raw = await RawHTTP.get(port: origin.port, "/r.bin")
            #expect(raw.body == [9])
            #expect(raw.header("Content-Type") == nil)
        }
    }

    @Test("HEAD gets the head with the Content-Length and no body")
    func headRequest() async throws {
        try await withOrigin { origin in
            origin.register(path: "/h", body: Data(count: 500), contentType: "image/png")
            let request = "HEAD /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let raw = await RawHTTP.exchange(port: origin.port, request: request)
            #expect(raw.statusCode == 200)
            #expect(raw.header("Content-Length") == "500")
            #expect(raw.body.isEmpty)
        }
    }
}
