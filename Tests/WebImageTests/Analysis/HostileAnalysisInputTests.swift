import Foundation
import Testing

@testable import WebImage

/// Every analysis is total: the smallest image, a fully transparent one, a large one and
/// extreme aspect ratios give an answer, never a trap.
@Suite("Image analysis on hostile input")
struct HostileAnalysisInputTests {
    /// Runs every analysis on `image`; the BlurHash at its largest and smallest component counts.
    static func analyseEverything(_ image: Image) throws {
        _ = try image.blurHash(components: (9, 9))
        _ = try image.blurHash(components: (1, 1))
        _ = image.thumbHash()
        _ = image.perceptualHash()
        _ = image.averageColor()
        _ = image.averageColor(ignoringTransparent: false)
        _ = try image.palette(maximumColors: 256)
        _ = image.dominantColors(buildsMissing: true)
    }

    @Test("A 1×1 image: every analysis gives its one colour back")
    func onePixel() throws {
        let color = RGBA8(r: 220, g: 40, b: 90)
        let image = Image(bitmap: ImageBitmap(width: 1, height: 1, fill: color))
        try Self.analyseEverything(image)
        #expect(image.averageColor() == color)
        #expect(try image.palette(maximumColors: 2) == [color])
        // The constant factors: one pixel has no other frequency worth drawing.
        #expect(BlurHashDecoder.averageColor(try image.blurHash(components: (4, 3))) == color)
        let thumb = ThumbHashDecoder(hash: image.thumbHash()).averageColor
        #expect(isClose(thumb, color, tolerance: 8), "\(thumb)")
    }

    @Test("A fully transparent image: no colours, a black BlurHash, a ThumbHash with alpha")
    func fullyTransparent() throws {
        let image = Image(bitmap: ImageBitmap(width: 50, height: 30, fill: RGBA8(r: 250, g: 0, b: 0, a: 0)))
        try Self.analyseEverything(image)
        #expect(image.averageColor() == .clear)
        #expect(try image.palette(maximumColors: 16) == [.clear])
        #expect(image.dominantColors(buildsMissing: true) == DominantColors())
        let decoded = try #require(BlurHashDecoder.decode(try image.blurHash(components: (3, 3)), width: 4, height: 4))
        #expect(decoded[2, 2] == .black)
        let thumb = ThumbHashDecoder(hash: image.thumbHash())
        #expect(thumb.hasAlpha)
        #expect(thumb.decode()[0, 0].a <= 8)
    }

    @Test("A 4000×3000 image is analysed from a few pixels and keeps its colours")
    func largeImage() throws {
        let color = RGBA8(r: 10, g: 120, b: 230)
        var bitmap = ImageBitmap(width: 4000, height: 3000, fill: color)
        // A white square in one corner, so the hashes have something to see.
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<1000 {
                for i in (y * 4000 * 4)..<(y * 4000 * 4 + 4000 * 4 / 4) { pixels[i] = 255 }
            }
        }
        let image = Image(bitmap: bitmap, orientation: .left)
        try Self.analyseEverything(image)
        #expect(try image.palette(maximumColors: 4).count == 2)
        #expect(image.dominantColors().vibrant == color)
        let decoded = try #require(
            BlurHashDecoder.decode(try image.blurHash(components: (4, 3)), width: 30, height: 40))
        // Far from the white corner, within the ringing that a sharp corner leaves in 4×3 cosines.
        #expect(isClose(decoded[25, 10], color, tolerance: 20), "\(decoded[25, 10])")
    }

    @Test(
        "Extreme aspect ratios and odd orientations are analysed",
        arguments: [
            (10_000, 1, ImageOrientation.up), (1, 5000, .right), (3, 2000, .downMirrored), (2, 2, .leftMirrored),
        ])
    func extremeShapes(width: Int, height: Int, orientation: ImageOrientation) throws {
        let image = Image(bitmap: AnalysisPictures.gradient(width: width, height: height), orientation: orientation)
        try Self.analyseEverything(image)
        #expect(try image.blurHash(components: (9, 9)).count == 4 + 2 * 81)
    }
}
