import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's colour options on the processed pixels.
@Suite("Service processing: colour filters")
struct ColourFilterTests {
    static func process(_ bitmap: ImageBitmap, _ segments: String...) throws -> Image {
        let image = Image(bitmap: bitmap, hasAlpha: bitmap.containsTransparency)
        let options = try ProcessingOptions(segments: segments)
        let plan = try ProcessingPlan(source: image.orientedSize, options: options)
        return try ImageProcessor(options: options, plan: plan).transformedImage(image, forKey: "")
    }

    static let midtones = ColourStatistics.midtones()

    @Test func brightnessPlus50RaisesTheMeanLumaBy50AfterTheResize() throws {
        let result = try Self.process(Self.midtones, "rs:fit:24:16", "br:50")
        let reference = try Self.process(Self.midtones, "rs:fit:24:16")
        #expect(result.bitmap.size == PixelSize(width: 24, height: 16))
        // ± 2: nothing clips in the midtones, so only rounding is left.
        #expect(abs(ColourStatistics.meanLuma(result.bitmap) - ColourStatistics.meanLuma(reference.bitmap) - 50) <= 2)
        let darker = try Self.process(Self.midtones, "brightness:-50")
        #expect(abs(ColourStatistics.meanLuma(darker.bitmap) - ColourStatistics.meanLuma(Self.midtones) + 50) <= 2)
    }

    @Test func saturationZeroGivesGrayPixels() throws {
        let gray = try Self.process(Self.midtones, "sa:0")
        #expect(ColourStatistics.maxChannelSpread(gray.bitmap) <= 1)
        let meta = try Self.process(Self.midtones, "a::1:0")
        #expect(meta.bitmap == gray.bitmap)
    }

    @Test func contrastTwoWidensTheStandardDeviation() throws {
        let before = ColourStatistics.lumaStandardDeviation(Self.midtones)
        let strong = try Self.process(Self.midtones, "co:2")
        #expect(ColourStatistics.lumaStandardDeviation(strong.bitmap) > 1.5 * before)
        let soft = try Self.process(Self.midtones, "contrast:0.5")
        #expect(abs(ColourStatistics.lumaStandardDeviation(soft.bitmap) / before - 0.5) <= 0.03)
    }

    @Test func adjustSetsAllThreeAsTheSingleOptionsDo() throws {
        let meta = try Self.process(Self.midtones, "adjust:-20:1.4:0.6")
        let single = try Self.process(Self.midtones, "sa:0.6", "br:-20", "co:1.4")
        #expect(meta.bitmap == single.bitmap && meta.bitmap != Self.midtones)
    }

    @Test func monochromeOneGivesPixelsOfTheColoursHue() throws {
        let result = try Self.process(Self.midtones, "mc:1:2060c0")
        let wanted = try #require(ColourStatistics.hue(RGBA8(r: 0x20, g: 0x60, b: 0xC0)))
        for pixel in ColourStatistics.allPixels(result.bitmap)
        where Int(max(pixel.r, pixel.g, pixel.b)) - Int(min(pixel.r, pixel.g, pixel.b)) >= 12 {
            let hue = try #require(ColourStatistics.hue(pixel))
            #expect(ColourStatistics.hueDistance(hue, wanted) <= 3, "\(pixel)")
        }
        // The default colour, b3b3b3, is gray: plain grayscale.
        let gray = try Self.process(Self.midtones, "monochrome:1")
        #expect(ColourStatistics.maxChannelSpread(gray.bitmap) <= 1)
    }

    @Test func duotoneMapsBlackToTheFirstColourAndWhiteToTheSecond() throws {
        let result = try Self.process(ColourStatistics.grayRamp(), "dt:1:000080:ffff00")
        #expect(result.bitmap[0, 0] == RGBA8(r: 0, g: 0, b: 0x80))
        #expect(result.bitmap[255, 3] == RGBA8(r: 255, g: 255, b: 0))
        // Mid-gray is half way (± 1).
        #expect(abs(Int(result.bitmap[128, 0].r) - 128) <= 1 && abs(Int(result.bitmap[128, 0].b) - 64) <= 1)
        let defaults = try Self.process(ColourStatistics.grayRamp(), "duotone:1")
        #expect(defaults.bitmap == ColourStatistics.grayRamp())
    }

    @Test func colorizeLaysTheColourAtItsOpacityAndCanKeepAlpha() throws {
        var bitmap = ImageBitmap(width: 4, height: 1, fill: .white)
        bitmap[3, 0] = .clear
        let over = try Self.process(bitmap, "col:0.5:f00")
        // White under red at 128/255: 255 × (1 − 0.502) ≈ 127 (± 1); the clear pixel takes the colour.
        #expect(over.bitmap[0, 0].r == 255 && abs(Int(over.bitmap[0, 0].g) - 127) <= 1)
        #expect(over.bitmap[3, 0] == RGBA8(r: 255, g: 0, b: 0, a: 128))
        let kept = try Self.process(bitmap, "colorize:0.5:ff0000:1")
        #expect(kept.bitmap[0, 0] == over.bitmap[0, 0] && kept.bitmap[3, 0].a == 0)
        let black = try Self.process(bitmap, "col:1")
        #expect(black.bitmap[1, 0] == .black)
    }

    @Test func gradientIsTransparentAtTheStartAndAtItsOpacityAtTheStop() throws {
        let white = ImageBitmap(width: 10, height: 41, fill: .white)
        let down = try Self.process(white, "gr:0.6")
        #expect(down.bitmap[5, 0] == .white)
        // 255 × (1 − 0.6) = 102 (± 1) at the stop, 255 × (1 − 0.3) ≈ 179 half way.
        #expect(abs(Int(down.bitmap[5, 40].r) - 102) <= 1 && abs(Int(down.bitmap[5, 20].r) - 179) <= 1)
        let up = try Self.process(white, "gradient:1:00ff00:up:0.5:1")
        #expect(up.bitmap[5, 40] == .white && up.bitmap[5, 20] == .white)
        #expect(up.bitmap[5, 0] == RGBA8(r: 0, g: 255, b: 0))
        let angled = try Self.process(white, "gr:1:000:90")
        #expect(angled.bitmap[9, 7] == .white && angled.bitmap[0, 7] == .black)
    }

    @Test(arguments: [
        "br:40", "sa:0", "mc:1", "dt:1:00f", "col:0.5", "ush:always", "ba:2:0:0:1:1", "pbl:2", "gr:0.5",
    ])
    func aColourOrDetailOptionStopsTheSourcePassingThrough(segment: String) throws {
        let source = try HandlingOptionsTests.png(ColourStatistics.midtones())
        #expect(try HandlingOptionsTests.produce(source, []).data == source, "no option: the source's own bytes")
        let result = try HandlingOptionsTests.produce(source, [segment])
        #expect(try HandlingOptionsTests.decoded(result.data) != ColourStatistics.midtones(), "\(segment)")
    }

    @Test func backgroundAlphaGivesTheFlattenedBackgroundThatAlpha() throws {
        var bitmap = ImageBitmap(width: 4, height: 4, fill: .clear)
        bitmap[0, 0] = RGBA8(r: 0, g: 0, b: 255)
        let result = try Self.process(bitmap, "bg:ff0000", "bga:0.5")
        // 0.5 × 255 = 127.5, rounded half up (± 1).
        #expect(result.hasAlpha && abs(Int(result.bitmap[2, 2].a) - 128) <= 1 && result.bitmap[2, 2].r == 255)
        #expect(result.bitmap[0, 0] == RGBA8(r: 0, g: 0, b: 255))
        let opaque = try Self.process(bitmap, "bg:ff0000", "background_alpha:1")
        #expect(!opaque.hasAlpha && opaque.bitmap[2, 2] == RGBA8(r: 255, g: 0, b: 0))
        let none = try Self.process(bitmap, "bga:0")
        #expect(none.bitmap == bitmap)
    }
}
