import Foundation
import Testing
import WebImage

/// `webimage demo`: the first thing a newcomer runs.
@Suite("webimage demo", .serialized)
struct DemoCommandTests {
    @Test("demo exits 0, coalesces the cold pass, sends no request warm, and writes a contact sheet")
    func demoRunsEndToEnd() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await CommandRunner.runOffPool(["demo", "--out", directory.path])
        try #require(result.status == 0, "stderr: \(result.standardError)\nstdout: \(result.standardOutput)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)

        let cold = try #require(lines.first { $0.hasPrefix("cold pass: ") })
        let coldLoads = try #require(number(before: " loads,", in: cold))
        let coldRequests = try #require(number(before: " HTTP requests", in: cold))
        #expect(coldRequests > 0 && coldRequests < coldLoads, "\(cold)")

        let warm = try #require(lines.first { $0.hasPrefix("warm pass: ") && $0.contains(" loads,") })
        let warmOrigin = try #require(lines.first { $0.contains("images that loaded cold") })
        #expect(number(before: " HTTP requests for the 11 images", in: warmOrigin) == 0, "\(warmOrigin)")
        // Only the truncated image (a transfer failure, not blocklisted) is asked again: once per
        // warm load of it (3) at most, fewer when its loads overlap and share a request.
        #expect((number(before: " HTTP requests", in: warm) ?? 99) <= 3, "\(warm)")
        #expect((number(before: " memory hits", in: warm) ?? 0) > 0, "\(warm)")
        #expect((number(before: " disk hits", in: warm) ?? 0) > 0, "\(warm)")
        #expect(
            number(before: " succeeded", in: warm) == number(before: " succeeded", in: cold), "\(cold)\n\(warm)")
        #expect(lines.contains { $0.hasPrefix("blocklisted after the cold pass: ") })

        // 14 tiles in rows of 4: 4 × 120 + 5 × 8 wide, 4 × 116 + 5 × 8 high.
        let sheetFile = directory.appendingPathComponent("contact-sheet.png")
        #expect(lines.contains { $0.hasPrefix("contact sheet: \(sheetFile.path) (520x504, 14 tiles)") })
        let sheet = try ImageCodersManager.shared.decode(Data(contentsOf: sheetFile), options: ImageDecodeOptions())
        #expect(sheet.width == 520 && sheet.height == 504)

        // The first tile holds the JPEG (reddish); the 404 tile (row 4, column 1) has a red cross.
        let photo = sheet.bitmap[8 + 60, 8 + 4 + 48]
        #expect(photo.r > photo.b + 40, "\(photo)")
        let tileTop = 8 + 3 * (116 + 8) + 4
        let crossTileLeft = 8 + 12
        let crossCentre = sheet.bitmap[crossTileLeft + 48, tileTop + 48]
        #expect(crossCentre.r > 180 && crossCentre.g < 80, "\(crossCentre)")
    }

    /// The integer just before `marker` in `line`.
    private func number(before marker: String, in line: String) -> Int? {
        guard let range = line.range(of: marker) else { return nil }
        let digits = line[..<range.lowerBound].reversed().prefix { $0.isNumber }
        return Int(String(digits.reversed()))
    }
}
