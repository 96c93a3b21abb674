import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's `crop_aspect_ratio`: the crop area (or the whole source) corrected to a ratio,
/// shrunk by default, grown with `enlarge` and then kept inside the source.
@Suite("Service processing: crop aspect ratio")
struct CropAspectRatioTests {
    static func cropSize(_ source: (Int, Int), _ segments: [String]) throws -> PixelSize {
        try ImgproxyGeometryTests.plan(source, segments).cropSize
    }

    @Test(arguments: [
        // The whole 200×100 source, shrunk on its longer side for the ratio.
        (["car:1"], 100, 100),
        (["crop_ar:0.5"], 50, 100),
        (["crop_aspect_ratio:4"], 200, 50),
        // Already that ratio: unchanged; 0 turns it off.
        (["car:2"], 200, 100),
        (["car:0"], 200, 100),
        // A crop area first: 100×80 at ratio 1 shrinks to 80×80, or grows to 100×100 with enlarge.
        (["c:100:80", "car:1"], 80, 80),
        (["c:100:80", "car:1:1"], 100, 100),
        (["c:80:100", "car:2"], 80, 40),
        (["c:80:100", "car:2:t"], 200, 100),
        // Grown past the source (160×40 at ratio 1 wants 160×160): the largest square inside it.
        (["c:160:40", "car:1:1"], 100, 100),
        // 33×50 at 0.2 grows to 33×165, too high: the largest 0.2 area inside is 20×100.
        (["c:33:50", "car:0.2:1"], 20, 100),
        // Corrected sides round half away from zero: 100 × 0.333 = 33.3 → 33, 100 × 0.125 = 12.5 → 13.
        (["c:150:100", "car:0.333"], 33, 100),
        (["c:150:100", "car:0.125"], 13, 100),
    ])
    func theCropAreaTakesTheRatioAsImgproxyCorrectsIt(segments: [String], width: Int, height: Int) throws {
        let size = try Self.cropSize((200, 100), segments)
        #expect(size == PixelSize(width: width, height: height), "\(segments)")
    }

    @Test func theCorrectedAreaKeepsItsGravityAndOffsets() throws {
        // imgproxy's own example: crop:100:200:nowe:300:400/crop_ar:1:1 crops 200×200 at (300, 400).
        let source = ImgproxyGeometryTests.positions(250, 250)
        let image = try ImgproxyGeometryTests.process(source, "c:50:60:nowe:20:30", "car:1:1")
        #expect(image.bitmap.size == PixelSize(width: 60, height: 60))
        #expect(image.bitmap[0, 0] == RGBA8(r: 20, g: 30, b: 0, a: 255))
        #expect(image.bitmap[59, 59] == RGBA8(r: 79, g: 89, b: 0, a: 255))
    }

    @Test func aRatioCropOfTheWholeSourceIsCentredByTheGravity() throws {
        let source = ImgproxyGeometryTests.positions(200, 100)
        let centred = try ImgproxyGeometryTests.process(source, "car:1")
        #expect(centred.bitmap.size == PixelSize(width: 100, height: 100))
        #expect(centred.bitmap[0, 0].r == 50)
        let east = try ImgproxyGeometryTests.process(source, "g:ea", "car:1")
        #expect(east.bitmap[0, 0].r == 100 && east.bitmap[99, 99].r == 199)
    }

    @Test func theRatioWorksWithResizing() throws {
        let plan = try ImgproxyGeometryTests.plan((200, 100), ["car:1", "rs:fit:50:50"])
        #expect(plan.cropSize == PixelSize(width: 100, height: 100))
        #expect(plan.finalSize == PixelSize(width: 50, height: 50))
    }

    @Test(arguments: ["car", "car:-1", "car:nan", "car:inf", "car:x", "car:1:maybe", "car:1:1:1"])
    func aBadRatioIsABadRequestNamingTheOption(segment: String) {
        do {
            _ = try ProcessingOptions(segments: [segment])
            Issue.record("\(segment) was accepted")
        } catch {
            #expect(error.status == 400 && error.message.contains("'car'"), "\(error.message)")
        }
    }

    @Test func extremeRatiosStayInsideTheSourceAndAboveOnePixel() throws {
        for segments in [["car:1e300"], ["car:1e-300"], ["car:1e300:1"], ["car:1e-300:1"], ["c:1:1", "car:1e300:1"]] {
            let size = try Self.cropSize((200, 100), segments)
            #expect((1...200).contains(size.width) && (1...100).contains(size.height), "\(segments)")
        }
    }

    @Test func theRatioIsPartOfTheCanonicalForm() throws {
        let options = try ProcessingOptions(segments: ["crop_aspect_ratio:1.5:t"])
        #expect(options.canonicalString.contains("car:1.5:1"))
        let reparsed = try ProcessingOptions(segments: options.canonicalString.split(separator: "/").map(String.init))
        #expect(reparsed == options)
        #expect(try ProcessingOptions(segments: ["car:1.5"]).canonicalString != options.canonicalString)
    }
}
