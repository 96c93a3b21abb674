import Foundation
import Testing
import WebImage

/// `webimage --version`: the one version, as the packages and the `Server` header use it.
@Suite("webimage --version")
struct VersionCommandTests {
    @Test func versionPrintsTheOneVersion() async throws {
        let result = try await CommandRunner.runOffPool(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "webimage \(WebImageVersion.current)\n")
        #expect(WebImageVersion.current.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+/) != nil)
    }
}
