import Foundation
import Testing
import WebImage
import WebImageTestOrigin

/// `info` and `convert` read http: inputs through the downloader, against the local origin.
@Suite("webimage http inputs", .serialized)
struct HTTPInputCommandTests {
    @Test("info reads an http: URL's bytes")
    func infoOverHTTP() async throws {
        try await withOrigin { origin in
            let url = origin.url("/fixtures/png/rgba8.png").absoluteString
            let result = try await CommandRunner.runOffPool(["info", url, "--json"])
            try #require(result.status == 0, "\(result.standardError)")
            let object = try json(result.standardOutput)
            #expect(object["format"] as? String == "png")
            #expect(object["width"] as? Int == 11)
            #expect(object["byteCount"] as? Int == (try Fixtures.data("png/rgba8.png")).count)
            #expect(origin.requestCount(path: "/fixtures/png/rgba8.png") == 1)
            let userAgent = origin.requests(path: "/fixtures/png/rgba8.png").first?.header("User-Agent")
            #expect(userAgent?.hasPrefix("swift-web-image/") == true)
        }
    }

    @Test("convert fetches, transforms and writes an http: input")
    func convertOverHTTP() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let output = directory.appendingPathComponent("out.png")
            let result = try await CommandRunner.runOffPool([
                "convert", origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString, output.path,
                "--resize", "80x60",
            ])
            try #require(result.status == 0, "\(result.standardError)")
            let written = try ImageCodersManager.shared.decode(Data(contentsOf: output), options: ImageDecodeOptions())
            #expect(written.width == 80 && written.height == 60)
        }
    }

    @Test(
        "http failures are one error line naming the cause",
        arguments: [
            ("/fixtures/png/missing.png", "404"), ("/garbage/64", "not in any known image format"),
            ("/fixtures/png/rgba8.png?reset=10", "transfer failed"),
        ])
    func httpFailures(path: String, expected: String) async throws {
        try await withOrigin { origin in
            let result = try await CommandRunner.runOffPool(["info", origin.url(path).absoluteString])
            #expect(result.status != 0)
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 1, "stderr: \(result.standardError)")
            #expect(lines.first?.hasPrefix("error: ") == true)
            #expect(result.standardError.contains(expected), "stderr: \(result.standardError)")
        }
    }
}
