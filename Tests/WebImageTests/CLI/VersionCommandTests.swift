import Foundation
import Testing
import WebImage

/// `webimage --version`: the one version, as the packages and the `Server` header use it, then
/// what the build holds (the tests run with every trait on, the default).
@Suite("webimage --version")
struct VersionCommandTests {
    @Test func versionPrintsTheOneVersion() async throws {
        let result = try await CommandRunner.runOffPool(["--version"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "webimage \(WebImageVersion.current)")
        #expect(WebImageVersion.current.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+/) != nil)
    }

    @Test func versionListsEveryFormatAndTraitOfTheDefaultBuild() async throws {
        let result = try await CommandRunner.runOffPool(["--version"])
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.dropFirst().first == "formats: png jpeg gif webp avif heic heif jxl tiff bmp")
        #expect(lines.last == "traits: AVIF HEIC JPEGXL TIFF ColorManagement Server")
    }
}
