import Foundation
import NIOCore
import Testing
import WebImageTestOrigin

@testable import WebImage

/// ``ResponseInflater`` over zlib, fed directly: chunk boundaries, raw deflate, corrupt bytes.
@Suite("Response inflater")
struct ResponseInflaterTests {
    typealias Support = DownloaderTestSupport

    private func compressed(_ origin: TestOrigin, _ coding: String) async throws -> [UInt8] {
        let raw = await RawHTTP.get(
            port: origin.port, Support.pngPath + "?\(coding)=1", headers: ["Accept-Encoding: \(coding)"])
        try #require(raw.header("Content-Encoding") == coding)
        return raw.body
    }

    private func inflate(_ bytes: [UInt8], coding: String, chunkSize: Int, limit: Int = 1 << 24) throws -> [UInt8] {
        let inflater = try #require(ResponseInflater(codings: [coding], limit: limit))
        var output: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + chunkSize, bytes.count)
            for part in try inflater.inflate(ByteBuffer(bytes: bytes[start..<end])) { output += part.readableBytesView }
            start = end
        }
        try inflater.finish()
        return output
    }

    @Test("A gzip body fed one byte at a time, or in odd chunks, inflates to the original bytes")
    func chunkBoundaries() async throws {
        try await Support.withOrigin { origin, _ in
            let png = Array(try Fixtures.data("png/rgb8.png"))
            let gzip = try await compressed(origin, "gzip")
            for size in [1, 7, 4096, gzip.count] {
                #expect(try inflate(gzip, coding: "gzip", chunkSize: size) == png, "chunks of \(size)")
            }
        }
    }

    @Test("deflate is read zlib-wrapped (RFC 9110) and raw (as some servers send it)")
    func rawDeflate() async throws {
        try await Support.withOrigin { origin, _ in
            let png = Array(try Fixtures.data("png/rgb8.png"))
            let wrapped = try await compressed(origin, "deflate")
            #expect(try inflate(wrapped, coding: "deflate", chunkSize: 1000) == png)
            // A zlib stream is a 2-byte header, the raw deflate data and a 4-byte Adler-32.
            let raw = Array(wrapped.dropFirst(2).dropLast(4))
            #expect(try inflate(raw, coding: "deflate", chunkSize: 1000) == png)
        }
    }

    @Test("Corrupt, cut-short and over-long streams throw the matching inflate error")
    func badStreams() async throws {
        try await Support.withOrigin { origin, _ in
            let gzip = try await compressed(origin, "gzip")
            var corrupt = gzip
            for index in 20..<60 { corrupt[index] ^= 0x5a }
            #expect {
                _ = try inflate(corrupt, coding: "gzip", chunkSize: 512)
            } throws: { error in
                guard case .corrupt = error as? InflateError else { return false }
                return true
            }
            #expect(throws: InflateError.truncated) {
                _ = try inflate(Array(gzip.dropLast(8)), coding: "gzip", chunkSize: 512)
            }
            #expect(throws: InflateError.trailingData) { _ = try inflate(gzip + [0], coding: "gzip", chunkSize: 512) }
            #expect(throws: InflateError.truncated) { _ = try inflate([], coding: "gzip", chunkSize: 512) }
            #expect(throws: InflateError.limit) { _ = try inflate(gzip, coding: "gzip", chunkSize: 512, limit: 100) }
            #expect(throws: InflateError.limit) { _ = try inflate(gzip, coding: "gzip", chunkSize: 512, limit: 0) }
        }
    }

    @Test("A corrupt gzip download fails with badServerResponse naming the bad body")
    func corruptDownload() async throws {
        try await Support.withOrigin { origin, downloader in
            var gzip = try await compressed(origin, "gzip")
            for index in 20..<60 { gzip[index] ^= 0x5a }
            origin.register(
                path: "/corrupt.png", body: Data(gzip), contentType: "image/png",
                headers: [("Content-Encoding", "gzip")])
            let error = try #require(await Support.download(downloader, origin.url("/corrupt.png")).error)
            #expect(error.transferKind == .badServerResponse)
            #expect(error.localizedDescription.contains("bad gzip/deflate body"))
        }
    }
}
