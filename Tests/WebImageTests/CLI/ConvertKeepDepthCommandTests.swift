import Foundation
import Testing

@testable import WebImage

@Suite("webimage convert --keep-depth", .serialized)
struct ConvertKeepDepthCommandTests {
    static let source = Fixtures.directory.appendingPathComponent("depth/rgb16.png").path

    /// Runs `convert` on the 16-bit PNG and returns what it wrote.
    private func convert(_ flags: [String]) async throws -> Data {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png")
        let result = try await CommandRunner.runOffPool(["convert", Self.source, output.path] + flags)
        try #require(result.status == 0, "\(flags): \(result.standardError)")
        return try Data(contentsOf: output)
    }

    @Test("--keep-depth writes a 16-bit PNG of the source's samples, resized at 16 bits")
    func keepDepthWritesSixteenBits() async throws {
        let exact = try await convert(["--keep-depth"])
        #expect(exact[exact.startIndex + 24] == 16)
        #expect(try DepthFixtures.decodeDeep(exact).deepBitmap == (try DepthFixtures.expected("rgb16.png")))
        let resized = try await convert(["--keep-depth", "--resize", "8x6"])
        #expect(resized[resized.startIndex + 24] == 16)
        #expect(try DepthFixtures.decodeDeep(resized).deepBitmap?.size == PixelSize(width: 8, height: 6))
    }

    @Test("without --keep-depth the output is 8-bit, as before")
    func defaultWritesEightBits() async throws {
        let written = try await convert([])
        #expect(written[written.startIndex + 24] == 8)
    }
}
