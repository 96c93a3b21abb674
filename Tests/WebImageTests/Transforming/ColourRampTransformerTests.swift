import Foundation
import Testing

@testable import WebImage

@Suite("Colour transformers: gradient and progressive blur")
struct ColourRampTransformerTests {
    static func apply(_ transformer: some ImageTransforming, to bitmap: ImageBitmap) throws -> ImageBitmap {
        try transformer.transformedImage(TransformTestSupport.image(bitmap), forKey: "k").bitmap
    }

    static let white = ImageBitmap(width: 40, height: 21, fill: .white)

    @Test("A gradient is transparent at the start and at its opacity at the stop (± 1 level)")
    func gradientRunsFromStartToStop() throws {
        let down = try Self.apply(ImageGradientTransformer(opacity: 0.6), to: Self.white)
        #expect(down[7, 0] == .white)
        // Black at 0.6 over white: 255 × 0.4 = 102 on the last row, 255 × 0.7 half way.
        #expect(abs(Int(down[7, 20].r) - 102) <= 1 && down[7, 20].a == 255)
        #expect(abs(Int(down[30, 10].g) - 179) <= 1)
        let left = try Self.apply(ImageGradientTransformer(opacity: 1, angle: 90), to: Self.white)
        #expect(left[39, 5] == .white && left[0, 5] == .black)
        let right = try Self.apply(ImageGradientTransformer(opacity: 1, angle: 270), to: Self.white)
        #expect(right[0, 5] == .white && right[39, 5] == .black)
        let up = try Self.apply(ImageGradientTransformer(opacity: 1, angle: -180), to: Self.white)
        #expect(up[3, 20] == .white && up[3, 0] == .black)
    }

    @Test("Before the start nothing changes, after the stop the colour is at full opacity")
    func gradientStartAndStop() throws {
        let red = RGBA8(r: 255, g: 0, b: 0)
        let result = try Self.apply(
            ImageGradientTransformer(opacity: 1, color: red, start: 0.25, stop: 0.75), to: Self.white)
        for y in 0...5 { #expect(result[11, y] == .white, "row \(y)") }
        for y in 15...20 { #expect(result[11, y] == red, "row \(y)") }
        #expect(result[11, 10].g > 0 && result[11, 10].g < 255)
        let step = try Self.apply(ImageGradientTransformer(opacity: 1, start: 0.5, stop: 0.5), to: Self.white)
        #expect(step[0, 9] == .white && step[0, 10] == .black)
    }

    @Test("Over transparency a gradient's alpha at the stop is its opacity (± 1)")
    func gradientOverTransparency() throws {
        let clear = ImageBitmap(width: 8, height: 9, fill: .clear)
        let result = try Self.apply(ImageGradientTransformer(opacity: 0.5, color: .white), to: clear)
        #expect(result[4, 0].a == 0)
        #expect(abs(Int(result[4, 8].a) - 128) <= 1 && result[4, 8].r == 255)
    }

    @Test("A progressive blur leaves the start edge unchanged and blurs the stop edge fully")
    func progressiveBlurGrowsAlongTheRamp() throws {
        let source = ImageBitmap.noise(width: 48, height: 60, seed: 9)
        let result = try Self.apply(ImageProgressiveBlurTransformer(radius: 4), to: source)
        let blurred = try Self.apply(ImageBlurTransformer(radius: 4), to: source)
        func row(_ bitmap: ImageBitmap, _ y: Int) -> ImageBitmap {
            (try? bitmap.cropped(to: PixelRect(x: 0, y: y, width: bitmap.width, height: 1))) ?? bitmap
        }
        #expect(row(result, 0) == row(source, 0))
        #expect(PixelMetrics.maxChannelDifference(row(result, 59), row(blurred, 59)) <= 1)
        // Half way the detail is between the source's and the full blur's.
        let middle = ColourStatistics.lumaStandardDeviation(row(result, 30))
        #expect(middle < ColourStatistics.lumaStandardDeviation(row(source, 30)))
        #expect(middle > ColourStatistics.lumaStandardDeviation(row(blurred, 30)))
        let sideways = try Self.apply(ImageProgressiveBlurTransformer(radius: 4, angle: 90, start: 0.5), to: source)
        let rightHalf = try source.cropped(to: PixelRect(x: 24, y: 0, width: 24, height: 60))
        #expect(try sideways.cropped(to: PixelRect(x: 24, y: 0, width: 24, height: 60)) == rightHalf)
    }

    @Test("Ramp keys write every parameter; bad ones are invalid arguments")
    func keysAndBadParameters() {
        #expect(
            ImageGradientTransformer(opacity: 0.5, color: .white, angle: 90, start: 0.1, stop: 0.9).transformerKey
                == "WebImageGradientTransformer(0.500000,#ffffffff,90.000000,0.100000,0.900000)")
        #expect(
            ImageProgressiveBlurTransformer(radius: 3, angle: 0, start: 0, stop: 1).transformerKey
                == "WebImageProgressiveBlurTransformer(3.000000,0.000000,0.000000,1.000000)")
        let bad: [any ImageTransforming] = [
            ImageGradientTransformer(opacity: 2), ImageGradientTransformer(opacity: 1, angle: .infinity),
            ImageGradientTransformer(opacity: 1, start: -0.5), ImageProgressiveBlurTransformer(radius: 1001),
            ImageProgressiveBlurTransformer(radius: 1, stop: .nan),
        ]
        for transformer in bad {
            #expect(throws: WebImageError.self, "\(transformer.transformerKey)") {
                try transformer.transformedImage(Image(bitmap: Self.white), forKey: "k")
            }
        }
    }
}
