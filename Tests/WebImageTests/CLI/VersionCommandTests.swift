import Foundation
import Testing
import WebImage

/// `webimage --version`: the one version, as the packages and the `Server` header use it (the
/// contract's single line); `webimage info --build` says what the build holds (the tests run with
/// every trait on, the default).
@Suite("webimage --version")
struct VersionCommandTests {
    @Test func versionPrintsTheOneVersion() async throws {
        let result = try await CommandRunner.runOffPool(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "webimage \(WebImageVersion.current)\n")
        #expect(WebImageVersion.current.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+/) != nil)
    }

    @Test func infoBuildListsEveryFormatAndTraitOfTheDefaultBuild() async throws {
        let result = try await CommandRunner.runOffPool(["info", "--build"])
        #expect(result.status == 0)
        #expect(
            result.standardOutput == """
                formats: jpeg png gif webp avif heic heif jxl tiff bmp ico
                traits:  AVIF HEIC JPEGXL TIFF SVG ColorManagement Server

                """)
        let json = try await CommandRunner.runOffPool(["info", "--build", "--json"])
        #expect(
            json.standardOutput == """
                {"version":"\(WebImageVersion.current)","formats":["jpeg","png","gif","webp","avif","heic","heif","jxl",\
                "tiff","bmp","ico"],"traits":["AVIF","HEIC","JPEGXL","TIFF","SVG","ColorManagement","Server"]}

                """)
    }

    @Test func infoTakesAnImageOrBuildNotBothNorNeither() async throws {
        #expect(try await CommandRunner.runOffPool(["info"]).status != 0)
        #expect(try await CommandRunner.runOffPool(["info", "--build", "x.png"]).status != 0)
    }
}
