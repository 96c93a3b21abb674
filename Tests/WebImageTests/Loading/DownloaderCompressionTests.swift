import Foundation
import NIOCore
import NIOHTTP1
import Testing
import WebImageTestOrigin

@testable import WebImage

/// Compressed bodies are inflated by the downloader itself (``ResponseInflater``), and only
/// when the response says it is compressed.
@Suite("ImageDownloader compressed responses")
struct DownloaderCompressionTests {
    typealias Support = DownloaderTestSupport

    /// The fixture PNG as the origin gzips it.
    private func gzippedPNG(_ origin: TestOrigin) async throws -> [UInt8] {
        let raw = await RawHTTP.get(port: origin.port, Support.pngPath + "?gzip=1", headers: ["Accept-Encoding: gzip"])
        try #require(raw.header("Content-Encoding") == "gzip")
        return raw.body
    }

    /// The fixture PNG as the origin deflates it.
    private func deflatedPNG(_ origin: TestOrigin) async throws -> [UInt8] {
        let raw = await RawHTTP.get(
            port: origin.port, Support.pngPath + "?deflate=1", headers: ["Accept-Encoding: deflate"])
        try #require(raw.header("Content-Encoding") == "deflate")
        return raw.body
    }

    private func serve(_ origin: TestOrigin, _ path: String, _ bytes: [UInt8], encoding: String) {
        origin.register(
            path: path, body: Data(bytes), contentType: "image/png", headers: [("Content-Encoding", encoding)])
    }

    @Test("A gzip body cut short fails with badServerResponse")
    func truncatedGzip() async throws {
        try await Support.withOrigin { origin, downloader in
            let gzip = try await gzippedPNG(origin)
            serve(origin, "/cut.png", Array(gzip.prefix(gzip.count / 2)), encoding: "gzip")
            let error = try #require(await Support.download(downloader, origin.url("/cut.png")).error)
            #expect(error.transferKind == .badServerResponse)
            #expect(error.localizedDescription.contains("cut short"))
        }
    }

    @Test("Bytes after the end of a gzip body fail with badServerResponse")
    func trailingBytes() async throws {
        try await Support.withOrigin { origin, downloader in
            let gzip = try await gzippedPNG(origin)
            serve(origin, "/trailing.png", gzip + Array("garbage".utf8), encoding: "gzip")
            let error = try #require(await Support.download(downloader, origin.url("/trailing.png")).error)
            #expect(error.transferKind == .badServerResponse)
            #expect(error.localizedDescription.contains("after the end"))
        }
    }

    @Test("x-gzip is inflated as gzip, and an encoding we cannot undo reaches the decoder as sent")
    func encodingNames() async throws {
        try await Support.withOrigin { origin, downloader in
            let gzip = try await gzippedPNG(origin)
            serve(origin, "/x-gzip.png", gzip, encoding: "x-gzip")
            let result = try await Support.download(downloader, origin.url("/x-gzip.png")).get()
            #expect(result.data == (try Fixtures.data("png/rgb8.png")))

            serve(origin, "/br.png", gzip, encoding: "br")
            let error = try #require(await Support.download(downloader, origin.url("/br.png")).error)
            #expect(error.isBadImageData)
        }
    }

    @Test("A caller's own Accept-Encoding is sent unchanged, and the plain body it gets is not inflated")
    func callersAcceptEncoding() async throws {
        try await Support.withOrigin { origin, downloader in
            downloader.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
            let result = try await Support.download(downloader, origin.url(Support.pngPath + "?gzip=1")).get()
            #expect(result.data == (try Fixtures.data("png/rgb8.png")))
            #expect(origin.requests(path: Support.pngPath).map { $0.header("Accept-Encoding") } == ["identity"])
        }
    }

    @Test("An inflater refuses more than its limit, whatever the compressed size")
    func inflaterLimit() async throws {
        try await Support.withOrigin { origin, _ in
            let gzip = try await gzippedPNG(origin)
            let expanded = try Fixtures.data("png/rgb8.png").count
            let inflater = try #require(ResponseInflater(codings: ["gzip"], limit: expanded - 1))
            #expect(throws: (any Error).self) {
                _ = try inflater.inflate(ByteBuffer(bytes: gzip))
                try inflater.finish()
            }
            let exact = try #require(ResponseInflater(codings: ["gzip"], limit: expanded))
            let parts = try exact.inflate(ByteBuffer(bytes: gzip))
            try exact.finish()
            #expect(parts.map(\.readableBytes).reduce(0, +) == expanded)
            #expect(ResponseInflater(codings: [], limit: 1) == nil)
            #expect(ResponseInflater(codings: ["gzip", "br"], limit: 1) == nil)
        }
    }

    @Test("Content-Encoding is read as a list over every field, case and spaces aside, without identity")
    func codingLists() {
        func codings(_ fields: [(String, String)]) -> [String] {
            ResponseInflater.codings(in: HTTPHeaders(fields))
        }
        #expect(codings([]) == [])
        #expect(codings([("Content-Encoding", "identity")]) == [])
        #expect(codings([("Content-Encoding", "")]) == [])
        #expect(codings([("Content-Encoding", " GZip ,identity")]) == ["gzip"])
        #expect(codings([("Content-Encoding", "deflate"), ("content-encoding", "X-Gzip")]) == ["deflate", "x-gzip"])
    }

    @Test("A coding listed with identity is undone, and stacked codings are undone last first")
    func stackedCodings() async throws {
        try await Support.withOrigin { origin, downloader in
            let png = try Fixtures.data("png/rgb8.png")
            serve(origin, "/listed.png", try await gzippedPNG(origin), encoding: "identity, gzip")
            #expect(try await Support.download(downloader, origin.url("/listed.png")).get().data == png)

            // The origin gzips the deflated bytes and adds its own field: "deflate", then "gzip".
            serve(origin, "/stacked.png", try await deflatedPNG(origin), encoding: "deflate")
            let raw = await RawHTTP.get(port: origin.port, "/stacked.png?gzip=1", headers: ["Accept-Encoding: gzip"])
            #expect(raw.headers("Content-Encoding") == ["deflate", "gzip"])
            #expect(try await Support.download(downloader, origin.url("/stacked.png?gzip=1")).get().data == png)
        }
    }

    @Test("More content codings than the inflater undoes fail with badServerResponse")
    func tooManyCodings() async throws {
        try await Support.withOrigin { origin, downloader in
            serve(origin, "/layers.png", try await gzippedPNG(origin), encoding: "gzip, gzip, gzip, gzip")
            let error = try #require(await Support.download(downloader, origin.url("/layers.png")).error)
            #expect(error.transferKind == .badServerResponse)
            #expect(error.localizedDescription.contains("4 content codings"))
            #expect(!error.isBadImageData)
        }
    }
}
