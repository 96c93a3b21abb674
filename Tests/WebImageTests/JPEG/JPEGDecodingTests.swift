import Foundation
import Testing

@testable import WebImage

@Suite("JPEG decoding")
struct JPEGDecodingTests {
    @Test func baselineDecodesToTheQuadrantColours() throws {
        let image = try JPEGFixture.decode("baseline.jpg")
        #expect(image.width == 64 && image.height == 48)
        #expect(areClose(image.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 6))
        #expect(!image.bitmap.containsTransparency)
        #expect(image.format == .jpeg)
        #expect(!image.hasAlpha && !image.isThumbnail && !image.isIncremental)
        #expect(image.orientation == .up)
    }

    @Test func progressiveDecodesToTheQuadrantColours() throws {
        let image = try JPEGFixture.decode("progressive.jpg")
        #expect(image.width == 320 && image.height == 240)
        #expect(areClose(image.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 16))
    }

    @Test func grayscaleBecomesEqualRGBChannels() throws {
        let image = try JPEGFixture.decode("gray.jpg")
        let levels: [UInt8] = [0, 85, 170, 255]
        for (colour, level) in zip(image.bitmap.quadrantColours, levels) {
            #expect(isClose(colour, RGBA8(r: level, g: level, b: level), tolerance: 3))
        }
        #expect(image.bitmap[0, 0].a == 255)
    }

    @Test func adobeCMYKIsReadAsInvertedInks() throws {
        let image = try JPEGFixture.decode("cmyk_adobe.jpg")
        let expected = [
            RGBA8(r: 255, g: 0, b: 0), RGBA8(r: 0, g: 255, b: 0), RGBA8.white, RGBA8.black,
        ]
        #expect(areClose(image.bitmap.quadrantColours, expected, tolerance: 6))
    }

    @Test func cmykWithoutAdobeMarkerIsReadAsPlainInks() throws {
        // The same samples as cmyk_adobe.jpg with APP14 removed: the stored values (which are
        // 255 - ink) now count as inks, so rich black (C0 M255 Y255 K255) shows as cyan.
        let image = try JPEGFixture.decode("cmyk_no_adobe.jpg")
        let colours = image.bitmap.quadrantColours
        #expect(isClose(colours[0], .black, tolerance: 6))
        #expect(isClose(colours[2], .black, tolerance: 6))
        #expect(isClose(colours[3], RGBA8(r: 0, g: 255, b: 255), tolerance: 6))
    }

    @Test func restartMarkersAnd444SamplingDecode() throws {
        let image = try JPEGFixture.decode("restart_444.jpg")
        #expect(image.width == 64 && image.height == 48)
        #expect(areClose(image.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 6))
    }

    @Test func imageInfoReadsTheHeaderOnly() throws {
        let info = try JPEGCoder().imageInfo(for: try JPEGFixture.data("progressive.jpg"))
        #expect(info == ImageInfo(format: .jpeg, width: 320, height: 240, hasAlpha: false, orientation: .up))
    }

    @Test func scaleFactorSetsTheImageScale() throws {
        #expect(try JPEGFixture.decode("baseline.jpg") { $0.scaleFactor = 2 }.scale == 2)
        #expect(try JPEGFixture.decode("baseline.jpg") { $0.scaleFactor = 0.5 }.scale == 1)
    }

    @Test func sniffsJPEGData() throws {
        let coder = JPEGCoder()
        #expect(coder.canDecode(try JPEGFixture.data("baseline.jpg")))
        #expect(coder.canDecodeIncrementally(try JPEGFixture.data("progressive.jpg")))
        #expect(!coder.canDecode(Data()))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(coder.canEncode(to: .jpeg) && !coder.canEncode(to: .png))
    }

    @Test func theSharedManagerDecodesJPEG() throws {
        let image = try ImageCodersManager.shared.decode(try JPEGFixture.data("baseline.jpg"), options: .init())
        #expect(image.format == .jpeg && image.width == 64)
    }

    @Test func aFileWithoutItsEOIMarkerStillDecodes() throws {
        var data = try JPEGFixture.data("baseline.jpg")
        #expect(data.suffix(2) == Data([0xFF, 0xD9]))
        data.removeLast(2)
        let image = try JPEGCoder().decode(data, options: .init())
        #expect(areClose(image.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 6))
    }
}
