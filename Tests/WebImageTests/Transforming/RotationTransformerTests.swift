import Foundation
import Testing

@testable import WebImage

@Suite("Rotation transformer")
struct RotationTransformerTests {
    let source = ImageBitmap.noise(width: 7, height: 4)

    private func rotate(_ degrees: Double, fitSize: Bool = true, _ bitmap: ImageBitmap? = nil) throws -> Image {
        try ImageRotationTransformer(angle: degrees * .pi / 180, fitSize: fitSize)
            .transformedImage(TransformTestSupport.image(bitmap ?? source, hasAlpha: false), forKey: "k")
    }

    @Test("Quarter turns are exact permutations, counter-clockwise for positive angles")
    func quarterTurns() throws {
        let w = source.width
        let h = source.height
        let ccw = try rotate(90)
        let half = try rotate(180)
        let cw = try rotate(270)
        let negative = try rotate(-90)
        #expect(ccw.bitmap.size == PixelSize(width: h, height: w))
        #expect(half.bitmap.size == source.size)
        for y in 0..<w {
            for x in 0..<h {
                // Counter-clockwise: the top-right corner comes to the top left.
                #expect(ccw.bitmap[x, y] == source[w - 1 - y, x])
                #expect(cw.bitmap[x, y] == source[y, h - 1 - x])
            }
        }
        for y in 0..<h { for x in 0..<w { #expect(half.bitmap[x, y] == source[w - 1 - x, h - 1 - y]) } }
        #expect(negative.bitmap == cw.bitmap)
        #expect(try rotate(360).bitmap == source)
        #expect(try rotate(720 + 180).bitmap == half.bitmap)
        #expect(!ccw.hasAlpha)
    }

    @Test("Quarter turns keeping the size centre the rotated pixels exactly on a transparent canvas")
    func quarterTurnKeepingSize() throws {
        let square = ImageBitmap.noise(width: 5, height: 5)
        let rotatedSquare = try rotate(90, fitSize: false, square)
        for y in 0..<5 { for x in 0..<5 { #expect(rotatedSquare.bitmap[x, y] == square[4 - y, x]) } }
        #expect(!rotatedSquare.hasAlpha)

        // 7×4 turned is 4×7; centred on the 7×4 canvas at (1.5, -1.5), rounded down to (1, -2).
        let kept = try rotate(90, fitSize: false)
        #expect(kept.bitmap.size == source.size)
        let turned = try rotate(90).bitmap
        for y in 0..<4 {
            for x in 0..<7 {
                let inside = x >= 1 && x < 5
                let expected = inside ? turned[x - 1, y + 2] : .clear
                #expect(kept.bitmap[x, y] == expected, "\(x),\(y)")
            }
        }
        #expect(kept.hasAlpha)
    }

    @Test("45° with fit size grows the canvas to side×√2, transparent corners, colour kept inside")
    func fortyFiveDegrees() throws {
        let red = RGBA8(r: 255, g: 0, b: 0)
        let square = ImageBitmap(width: 100, height: 100, fill: red)
        let result = try rotate(45, fitSize: true, square)
        let expectedSide = Int(clamping: 100 * 2.0.squareRoot(), rounding: .up)
        #expect(result.bitmap.size == PixelSize(width: expectedSide, height: expectedSide))
        #expect(result.bitmap[0, 0].a == 0)
        #expect(result.bitmap[expectedSide / 2, expectedSide / 2] == red)
        #expect(result.bitmap[expectedSide / 2, 2] == red)
        #expect(result.hasAlpha)
        // The diamond's edges are antialiased: partly covered pixels, never darkened.
        var partial = 0
        for y in 0..<expectedSide {
            for x in 0..<expectedSide {
                let pixel = result.bitmap[x, y]
                if pixel.a > 0 && pixel.a < 255 { partial += 1 }
                if pixel.a > 0 { #expect(pixel.r == 255 && pixel.g == 0 && pixel.b == 0) }
            }
        }
        #expect(partial > 100)
        let kept = try rotate(45, fitSize: false, square)
        #expect(kept.bitmap.size == square.size)
        #expect(kept.bitmap[0, 0].a == 0)
        #expect(kept.bitmap[50, 50] == red)
    }

    @Test("Small angles turn the way SDWebImage documents: counter-clockwise")
    func direction() throws {
        // A mark right of centre moves up when turned counter-clockwise.
        var bitmap = ImageBitmap(width: 41, height: 41, fill: .white)
        for y in 19...21 { for x in 34...37 { bitmap[x, y] = .black } }
        let result = try rotate(30, fitSize: false, bitmap)
        var darkest = (x: 0, y: 0, value: 255)
        for y in 0..<41 {
            for x in 0..<41 where result.bitmap[x, y].a == 255 && Int(result.bitmap[x, y].r) < darkest.value {
                darkest = (x, y, Int(result.bitmap[x, y].r))
            }
        }
        #expect(darkest.value < 64, "the mark should survive")
        #expect(darkest.y < 16, "the mark is at \(darkest.x),\(darkest.y)")
        #expect(darkest.x > 25)
    }

    @Test("Non-finite angles are invalid arguments", arguments: [Double.nan, .infinity, -.infinity])
    func badAngles(angle: Double) {
        #expect {
            try ImageRotationTransformer(angle: angle, fitSize: true)
                .transformedImage(
                    TransformTestSupport.image(ImageBitmap(width: 3, height: 3, fill: .white)), forKey: "")
        } throws: { error in
            guard (error as? WebImageError)?.code == .invalidArgument else { return false }
            return true
        }
    }
}
