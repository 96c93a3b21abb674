import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// What each processing step does to the pixels.
@Suite("Service processing: pixels")
struct ImageProcessorTests {
    static func process(_ image: Image, _ segments: String...) throws -> Image {
        let options = try ProcessingOptions(segments: segments)
        let plan = try ProcessingPlan(source: image.orientedSize, options: options)
        return try ImageProcessor(options: options, plan: plan).transformedImage(image, forKey: "")
    }

    static let red = RGBA8(r: 255, g: 0, b: 0, a: 255)

    @Test func extendPlacesTheImageOnTheBoxAndTheBackgroundFillsTheRest() throws {
        let source = Image(bitmap: ImageBitmap(width: 10, height: 10, fill: Self.red), hasAlpha: false)
        let centred = try Self.process(source, "rs:fit:20:20", "ex:1", "bg:0000ff")
        #expect(centred.bitmap.size == PixelSize(width: 20, height: 20))
        #expect(centred.bitmap[10, 10] == Self.red)
        #expect(centred.bitmap[0, 0] == RGBA8(r: 0, g: 0, b: 255, a: 255))
        #expect(!centred.hasAlpha)
        let corner = try Self.process(source, "rs:fit:20:20", "ex:1:soea")
        #expect(corner.bitmap[19, 19] == Self.red && corner.bitmap[0, 0].a == 0 && corner.hasAlpha)
    }

    @Test func fillCropsByGravityAndRotateTurnsClockwise() throws {
        // Left half red, right half green.
        var bitmap = ImageBitmap(width: 20, height: 10, fill: Self.red)
        for y in 0..<10 { for x in 10..<20 { bitmap[x, y] = RGBA8(r: 0, g: 255, b: 0, a: 255) } }
        let source = Image(bitmap: bitmap, hasAlpha: false)
        let east = try Self.process(source, "rs:fill:10:10", "g:ea")
        #expect(east.bitmap.size == PixelSize(width: 10, height: 10))
        #expect(east.bitmap[5, 5].g == 255)
        let west = try Self.process(source, "rs:fill:10:10", "g:we")
        #expect(west.bitmap[5, 5] == Self.red)
        let turned = try Self.process(source, "rot:90")
        #expect(turned.bitmap.size == PixelSize(width: 10, height: 20))
        #expect(turned.bitmap[5, 2] == Self.red && turned.bitmap[5, 17].g == 255)
    }

    @Test func sharpenRaisesContrastAtEdgesAndLeavesFlatAreas() throws {
        var bitmap = ImageBitmap(width: 20, height: 4, fill: RGBA8(r: 100, g: 100, b: 100, a: 255))
        for y in 0..<4 { for x in 10..<20 { bitmap[x, y] = RGBA8(r: 150, g: 150, b: 150, a: 255) } }
        let sharpened = try Self.process(Image(bitmap: bitmap, hasAlpha: false), "sh:1")
        #expect(sharpened.bitmap[2, 2].r == 100 && sharpened.bitmap[17, 2].r == 150)
        #expect(sharpened.bitmap[9, 2].r < 100 && sharpened.bitmap[10, 2].r > 150)
    }

    @Test func ourRoundCornerAndTintApply() throws {
        let source = Image(bitmap: ImageBitmap(width: 20, height: 20, fill: Self.red), hasAlpha: false)
        let rounded = try Self.process(source, "wirc:8")
        #expect(rounded.bitmap[0, 0].a == 0 && rounded.bitmap[10, 10] == Self.red)
        let tinted = try Self.process(source, "witn:0000ff")
        #expect(tinted.bitmap[10, 10] == RGBA8(r: 0, g: 0, b: 255, a: 255))
    }
}
