import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// ICO through the service: read as a source, written when the URL names it (imgproxy's `ico`),
/// scaled down to fit 256×256 as imgproxy does.
@Suite("Service processing: ICO")
struct ICOServiceTests {
    static func produce(_ segments: [String], source: Data, format: ImageFormat?) throws -> ProcessedResult {
        let options = try ProcessingOptions(segments: segments)
        return try ResultProducer(untracedWith: ServiceConfiguration(), options: options).produce(
            from: source, format: format ?? options.format)
    }

    @Test func theFormatOptionAndExtensionNameICO() throws {
        #expect(try ProcessingOptions(segments: ["f:ico"]).format == .ico)
        #expect(OutputFormats.format(forExtension: "ico") == .ico)
        #expect(OutputFormats.names.contains("ico"))
    }

    @Test func anICOSourceComesOutAsPNGOrAsTheFormatNamed() throws {
        let source = try Fixtures.data("ico/mixed.ico")
        let resized = try Self.produce(["w:24"], source: source, format: nil)
        #expect(resized.contentType == "image/png")
        #expect(try ImageCodersManager.shared.imageInfo(for: resized.data).width == 24)
        let asJPEG = try Self.produce(["w:24"], source: source, format: .jpeg)
        #expect(asJPEG.contentType == "image/jpeg")
    }

    @Test func aLargeSourceWrittenAsICOIsScaledDownTo256() throws {
        let source = try Fixtures.data("jpeg/photo_800x600.jpg")
        let result = try Self.produce(["f:ico"], source: source, format: nil)
        #expect(result.contentType == "image/x-icon")
        let info = try ImageCodersManager.shared.imageInfo(for: result.data)
        #expect(info.format == .ico && info.width == 256 && info.height == 192)
    }
}
