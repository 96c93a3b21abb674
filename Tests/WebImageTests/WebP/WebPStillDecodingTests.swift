import Foundation
import Testing

@testable import WebImage

@Suite("WebP still decoding")
struct WebPStillDecodingTests {
    let coder = WebPCoder()

    @Test func lossyQuadrantsDecodeToTheirColours() throws {
        let image = try coder.decode(try Fixtures.data("webp/lossy.webp"), options: ImageDecodeOptions())
        #expect(image.width == 64 && image.height == 48)
        #expect(image.format == .webp)
        #expect(!image.hasAlpha)
        #expect(!image.isAnimated && !image.isIncremental && !image.isThumbnail)
        let expected: [(Int, Int, RGBA8)] = [
            (8, 6, RGBA8(r: 255, g: 0, b: 0)), (56, 6, RGBA8(r: 0, g: 255, b: 0)),
            (8, 42, RGBA8(r: 0, g: 0, b: 255)), (56, 42, RGBA8(r: 255, g: 255, b: 255)),
        ]
        for (x, y, colour) in expected {
            #expect(isClose(image.bitmap[x, y], colour, tolerance: 12), "pixel \(x),\(y)")
        }
    }

    @Test func losslessWithAlphaMatchesTheSourceBytesExactly() throws {
        let image = try coder.decode(try Fixtures.data("webp/lossless_alpha.webp"), options: ImageDecodeOptions())
        let expected = try Fixtures.data("webp/lossless_alpha.rgba")
        #expect(image.width == 32 && image.height == 32)
        #expect(image.hasAlpha)
        #expect(image.bitmap.pixels == [UInt8](expected))
        #expect(image.bitmap[24, 24] == RGBA8(r: 10, g: 200, b: 30, a: 0))
        #expect(image.bitmap[4, 20] == RGBA8(r: 0, g: 200, b: 0, a: 128))
    }

    @Test func imageInfoReadsSizeAlphaAndFrames() throws {
        let lossy = try coder.imageInfo(for: try Fixtures.data("webp/lossy.webp"))
        #expect(lossy == ImageInfo(format: .webp, width: 64, height: 48, frameCount: 1, loopCount: 1, hasAlpha: false))
        let alpha = try coder.imageInfo(for: try Fixtures.data("webp/lossless_alpha.webp"))
        #expect(alpha.hasAlpha && alpha.width == 32 && alpha.frameCount == 1)
        let animated = try coder.imageInfo(for: try Fixtures.data("webp/animated.webp"))
        #expect(animated.width == 40 && animated.height == 30)
        #expect(animated.frameCount == 5 && animated.loopCount == 2)
    }

    @Test func thumbnailUsesTheExactTargetSize() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let image = try coder.decode(try Fixtures.data("webp/lossy.webp"), options: options)
        #expect(image.width == 32 && image.height == 24)
        #expect(image.isThumbnail)
        #expect(isClose(image.bitmap[4, 3], RGBA8(r: 255, g: 0, b: 0), tolerance: 16))
        #expect(isClose(image.bitmap[28, 21], RGBA8(r: 255, g: 255, b: 255), tolerance: 16))
    }

    @Test func thumbnailWithoutAspectRatioStretches() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 16, height: 40)
        options.preserveAspectRatio = false
        let image = try coder.decode(try Fixtures.data("webp/lossy.webp"), options: options)
        #expect(image.width == 16 && image.height == 40)
        #expect(image.isThumbnail)
    }

    @Test func thumbnailLargerThanTheImageDecodesFullSize() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 500, height: 500)
        let image = try coder.decode(try Fixtures.data("webp/lossy.webp"), options: options)
        #expect(image.width == 64 && image.height == 48)
        #expect(!image.isThumbnail)
    }

    @Test func scaleFactorIsKeptAndClampedToOne() throws {
        var options = ImageDecodeOptions()
        options.scaleFactor = 2
        #expect(try coder.decode(try Fixtures.data("webp/lossy.webp"), options: options).scale == 2)
        options.scaleFactor = 0.5
        #expect(try coder.decode(try Fixtures.data("webp/lossy.webp"), options: options).scale == 1)
    }

    @Test func coderAcceptsOnlyWebP() throws {
        #expect(coder.canDecode(try Fixtures.data("webp/lossy.webp")))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(coder.canEncode(to: .webp))
        #expect(!coder.canEncode(to: .png))
        #expect(throws: WebImageError.unsupportedFormat(.png)) {
            try coder.encode(Image(bitmap: ImageBitmap(width: 1, height: 1, fill: .white)), as: .png, options: .init())
        }
    }

    @Test func sharedManagerDecodesWebP() throws {
        let image = try ImageCodersManager.shared.decode(
            try Fixtures.data("webp/lossless_alpha.webp"), options: ImageDecodeOptions())
        #expect(image.format == .webp && image.width == 32)
    }
}
