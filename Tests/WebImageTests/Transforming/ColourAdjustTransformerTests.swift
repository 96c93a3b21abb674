import Foundation
import Testing

@testable import WebImage

@Suite("Colour transformers: adjust, monochrome, duotone")
struct ColourAdjustTransformerTests {
    static func apply(_ transformer: some ImageTransforming, to bitmap: ImageBitmap) throws -> ImageBitmap {
        try transformer.transformedImage(TransformTestSupport.image(bitmap, hasAlpha: false), forKey: "k").bitmap
    }

    @Test("Brightness +50 raises the mean luma by 50 ± 2, -50 lowers it by 50 ± 2")
    func brightnessShiftsLuma() throws {
        let source = ColourStatistics.midtones()
        let before = ColourStatistics.meanLuma(source)
        let brighter = try Self.apply(ImageColorAdjustTransformer(brightness: 50), to: source)
        let darker = try Self.apply(ImageColorAdjustTransformer(brightness: -50), to: source)
        #expect(abs(ColourStatistics.meanLuma(brighter) - before - 50) <= 2)
        #expect(abs(ColourStatistics.meanLuma(darker) - before + 50) <= 2)
        // Every channel moves by exactly 50 (nothing clips in the midtones).
        #expect(brighter[3, 4].r == source[3, 4].r + 50 && darker[3, 4].g == source[3, 4].g - 50)
    }

    @Test("Saturation 0 gives gray pixels (channel spread ≤ 1) of the same luma ± 1; 2 spreads them")
    func saturationMovesFromGray() throws {
        let source = ColourStatistics.midtones()
        let gray = try Self.apply(ImageColorAdjustTransformer(saturation: 0), to: source)
        #expect(ColourStatistics.maxChannelSpread(gray) <= 1)
        #expect(abs(ColourStatistics.meanLuma(gray) - ColourStatistics.meanLuma(source)) <= 1)
        let vivid = try Self.apply(ImageColorAdjustTransformer(saturation: 2), to: source)
        #expect(ColourStatistics.maxChannelSpread(vivid) > ColourStatistics.maxChannelSpread(source))
    }

    @Test("Contrast 2 widens the luma's standard deviation, 0.5 halves it (± 3 %), 0 is mid-gray")
    func contrastScalesSpread() throws {
        let source = ColourStatistics.midtones()
        let spread = ColourStatistics.lumaStandardDeviation(source)
        let strong = try Self.apply(ImageColorAdjustTransformer(contrast: 2), to: source)
        #expect(ColourStatistics.lumaStandardDeviation(strong) > 1.5 * spread)
        let soft = try Self.apply(ImageColorAdjustTransformer(contrast: 0.5), to: source)
        #expect(abs(ColourStatistics.lumaStandardDeviation(soft) / spread - 0.5) <= 0.03)
        let flat = try Self.apply(ImageColorAdjustTransformer(contrast: 0), to: source)
        #expect(ColourStatistics.allPixels(flat).allSatisfy { $0 == RGBA8(r: 128, g: 128, b: 128) })
    }

    @Test("The neutral adjustment changes nothing, and alpha is always kept")
    func neutralAndAlpha() throws {
        let source = ImageBitmap.noise(width: 20, height: 10, seed: 3, alpha: .random)
        #expect(try Self.apply(ImageColorAdjustTransformer(), to: source) == source)
        let adjusted = try Self.apply(
            ImageColorAdjustTransformer(brightness: 30, contrast: 1.5, saturation: 0), to: source)
        #expect(
            zip(ColourStatistics.allPixels(adjusted), ColourStatistics.allPixels(source)).allSatisfy { $0.a == $1.a })
    }

    @Test("Monochrome 1 gives pixels of the colour's hue (± 3°) and keeps their luma (± 2)")
    func monochromeTakesTheHue() throws {
        let source = ColourStatistics.midtones()
        for colour in [RGBA8(r: 255, g: 0, b: 0), RGBA8(r: 40, g: 90, b: 200)] {
            let result = try Self.apply(ImageMonochromeTransformer(intensity: 1, color: colour), to: source)
            let wanted = try #require(ColourStatistics.hue(colour))
            for (before, after) in zip(ColourStatistics.allPixels(source), ColourStatistics.allPixels(result)) {
                #expect(abs(ColourStatistics.luma(after) - ColourStatistics.luma(before)) <= 2)
                // Near gray, 8-bit rounding moves the hue; judge pixels with some colour.
                guard Int(max(after.r, after.g, after.b)) - Int(min(after.r, after.g, after.b)) >= 12 else { continue }
                let hue = try #require(ColourStatistics.hue(after))
                #expect(ColourStatistics.hueDistance(hue, wanted) <= 3, "\(after) for \(colour)")
            }
        }
    }

    @Test("Monochrome's default colour is plain gray; intensity 0.5 goes half way (± 1)")
    func monochromeDefaultsAndIntensity() throws {
        let source = ColourStatistics.midtones()
        let gray = try Self.apply(ImageMonochromeTransformer(), to: source)
        #expect(ColourStatistics.maxChannelSpread(gray) <= 1)
        let half = try Self.apply(ImageMonochromeTransformer(intensity: 0.5), to: source)
        for (index, (full, own)) in zip(ColourStatistics.allPixels(gray), ColourStatistics.allPixels(source))
            .enumerated()
        {
            let mixed = ColourStatistics.allPixels(half)[index]
            #expect(abs(Int(mixed.g) * 2 - Int(full.g) - Int(own.g)) <= 2)
        }
        let ends = ImageBitmap(width: 2, height: 1, fill: .black)
        var blackAndWhite = ends
        blackAndWhite[1, 0] = .white
        let kept = try Self.apply(
            ImageMonochromeTransformer(intensity: 1, color: RGBA8(r: 0, g: 200, b: 90)), to: blackAndWhite)
        #expect(kept == blackAndWhite)
    }

    @Test("Duotone maps black to the first colour, white to the second and mid-gray between (± 1)")
    func duotoneMapsTheRamp() throws {
        let (dark, light) = (RGBA8(r: 20, g: 0, b: 120), RGBA8(r: 250, g: 200, b: 0))
        let ramp = ColourStatistics.grayRamp()
        let result = try Self.apply(ImageDuotoneTransformer(intensity: 1, dark: dark, light: light), to: ramp)
        #expect(result[0, 0] == dark && result[255, 0] == light)
        let middle = result[128, 1]
        // Luma 128 of 255: 20 + 230 × 128/255 ≈ 135 red, 120 − 120 × 128/255 ≈ 60 blue.
        let (red, blue) = (Int(middle.r), Int(middle.b))
        #expect(abs(red - 135) <= 1 && abs(blue - 60) <= 1)
        #expect(try Self.apply(ImageDuotoneTransformer(intensity: 0, dark: dark, light: light), to: ramp) == ramp)
        let half = try Self.apply(ImageDuotoneTransformer(intensity: 0.5, dark: dark, light: light), to: ramp)
        #expect(abs(Int(half[0, 0].b) - 60) <= 1 && abs(Int(half[255, 0].b) - 128) <= 1)
    }

    @Test("Keys name the transformer and write every parameter")
    func keys() {
        #expect(
            ImageColorAdjustTransformer(brightness: -20, contrast: 1.5, saturation: 0).transformerKey
                == "WebImageColorAdjustTransformer(-20.000000,1.500000,0.000000)")
        #expect(
            ImageMonochromeTransformer(intensity: 0.5, color: RGBA8(r: 0xB3, g: 0xB3, b: 0xB3)).transformerKey
                == "WebImageMonochromeTransformer(0.500000,#ffb3b3b3)")
        #expect(
            ImageDuotoneTransformer(intensity: 1, dark: .black, light: RGBA8(r: 255, g: 0, b: 0)).transformerKey
                == "WebImageDuotoneTransformer(1.000000,#ff000000,#ffff0000)")
    }

    @Test(
        "Parameters outside their ranges are invalid arguments, never traps",
        arguments: [
            ImageColorAdjustTransformer(brightness: 256) as any ImageTransforming,
            ImageColorAdjustTransformer(brightness: .nan), ImageColorAdjustTransformer(contrast: -1),
            ImageColorAdjustTransformer(contrast: .infinity), ImageColorAdjustTransformer(saturation: 101),
            ImageMonochromeTransformer(intensity: 1.5), ImageMonochromeTransformer(intensity: -.nan),
            ImageDuotoneTransformer(intensity: -0.1),
        ])
    func badParameters(transformer: any ImageTransforming) {
        #expect {
            try transformer.transformedImage(Image(bitmap: ImageBitmap(width: 2, height: 2, fill: .white)), forKey: "k")
        } throws: { error in
            (error as? WebImageError)?.code == .invalidArgument
        }
    }
}
