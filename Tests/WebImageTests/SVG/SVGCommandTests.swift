#if SVG
    import Foundation
    import Testing

    @testable import WebImage

    /// `webimage info` and `convert` with SVG sources (every SVG fixture also goes through the
    /// commands' all-fixture tests).
    @Suite("webimage info and convert: SVG")
    struct SVGCommandTests {
        @Test func infoReadsTheDocumentsSize() async throws {
            let file = Fixtures.directory.appendingPathComponent("svg/width_only.svg").path
            let result = try await CommandRunner.runOffPool(["info", file, "--json"])
            let object = try json(result.standardOutput)
            #expect(
                object["format"] as? String == "svg" && object["width"] as? Int == 90 && object["height"] as? Int == 60)
        }

        @Test func convertDrawsAnSVGAtTheSizeTheResizeNeeds() async throws {
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let output = directory.appendingPathComponent("shapes.png")
            let result = try await CommandRunner.runOffPool([
                "convert", Fixtures.directory.appendingPathComponent("svg/shapes.svg").path, output.path,
                "--resize", "128x96",
            ])
            try #require(result.status == 0, "\(result.standardError)")
            let image = try ImageCodersManager.shared.decode(Data(contentsOf: output), options: ImageDecodeOptions())
            let reference = try SVGFixtures.reference("shapes_128x96", PixelSize(width: 128, height: 96))
            #expect(image.bitmap.size == reference.size)
            let difference = PixelMetrics.maxVisibleDifference(
                image.bitmap, reference, minimumAlpha: SVGFixtures.minimumAlpha)
            #expect(difference <= SVGFixtures.tolerance, "\(difference)")
        }
    }
#endif
