import Foundation
import Testing

@testable import WebImage

@Suite("WebP encoding")
struct WebPEncodingTests {
    let coder = WebPCoder()
    let colours = [
        RGBA8(r: 255, g: 0, b: 0), RGBA8(r: 0, g: 255, b: 0), RGBA8(r: 0, g: 0, b: 255), RGBA8(r: 255, g: 255, b: 255),
    ]

    @Test func lossyRoundTripKeepsColoursWithinTolerance() throws {
        let bitmap = WebPTestSupport.quadrants(width: 64, height: 48, colours)
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.9
        let data = try coder.encode(Image(bitmap: bitmap, hasAlpha: false), as: .webp, options: options)
        #expect(ImageFormat(detecting: data) == .webp)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(!decoded.hasAlpha)
        #expect(isClose(decoded.bitmap[8, 6], colours[0], tolerance: 12))
        #expect(isClose(decoded.bitmap[56, 6], colours[1], tolerance: 12))
        #expect(isClose(decoded.bitmap[8, 42], colours[2], tolerance: 12))
        #expect(isClose(decoded.bitmap[56, 42], colours[3], tolerance: 12))
    }

    @Test func lowerQualityGivesSmallerFiles() throws {
        let photo = try coder.decode(try Fixtures.data("webp/photo.webp"), options: ImageDecodeOptions())
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.1
        let low = try coder.encode(photo, as: .webp, options: options)
        options.compressionQuality = 0.95
        let high = try coder.encode(photo, as: .webp, options: options)
        #expect(low.count < high.count)
    }

    @Test func losslessRoundTripIsBitExactIncludingInvisiblePixels() throws {
        let source = try Fixtures.data("webp/lossless_alpha.rgba")
        let bitmap = try ImageBitmap(width: 32, height: 32, pixels: [UInt8](source))
        var options = ImageEncodeOptions()
        options.lossless = true
        let data = try coder.encode(Image(bitmap: bitmap), as: .webp, options: options)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap.pixels == bitmap.pixels)
        #expect(decoded.bitmap[21, 21] == RGBA8(r: 250, g: 5, b: 120, a: 0))
        #expect(decoded.hasAlpha)
    }

    @Test func losslessNoisyRoundTripIsBitExact() throws {
        let photo = try coder.decode(try Fixtures.data("webp/photo.webp"), options: ImageDecodeOptions())
        var bitmap = photo.bitmap
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where (x * 7 + y * 3) % 5 == 0 {
                var pixel = bitmap[x, y]
                pixel.a = UInt8((x * 31 + y) % 256)
                bitmap[x, y] = pixel
            }
        }
        var options = ImageEncodeOptions()
        options.lossless = true
        let data = try coder.encode(Image(bitmap: bitmap), as: .webp, options: options)
        #expect(try coder.decode(data, options: ImageDecodeOptions()).bitmap == bitmap)
    }

    @Test func orientationIsAppliedBeforeEncoding() throws {
        let bitmap = WebPTestSupport.quadrants(width: 4, height: 2, colours)
        var options = ImageEncodeOptions()
        options.lossless = true
        let image = Image(bitmap: bitmap, orientation: .right)
        let decoded = try coder.decode(try coder.encode(image, as: .webp, options: options), options: .init())
        #expect(decoded.width == 2 && decoded.height == 4)
        #expect(decoded.bitmap == bitmap.applyingOrientation(.right))
    }

    @Test func maxPixelSizeScalesDownKeepingTheAspectRatio() throws {
        let bitmap = WebPTestSupport.quadrants(width: 64, height: 48, colours)
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 32, height: 32)
        let decoded = try coder.decode(
            try coder.encode(Image(bitmap: bitmap), as: .webp, options: options), options: .init())
        #expect(decoded.width == 32 && decoded.height == 24)
        #expect(isClose(decoded.bitmap[4, 3], colours[0], tolerance: 16))
    }

    @Test func maxFileSizeFindsAQualityThatFits() throws {
        let photo = try coder.decode(try Fixtures.data("webp/photo.webp"), options: ImageDecodeOptions())
        let full = try coder.encode(photo, as: .webp, options: ImageEncodeOptions())
        var options = ImageEncodeOptions()
        options.maxFileSize = full.count / 2
        let limited = try coder.encode(photo, as: .webp, options: options)
        #expect(limited.count <= full.count / 2)
        #expect(limited.count > full.count / 8)
        #expect(try coder.decode(limited, options: .init()).width == 192)
        // An impossible limit returns the smallest output rather than failing.
        options.maxFileSize = 10
        let smallest = try coder.encode(photo, as: .webp, options: options)
        #expect(smallest.count > 10 && smallest.count < limited.count)
    }

    @Test func animatedRoundTripKeepsFramesDurationsAndLoopCount() throws {
        let original = try coder.decode(try Fixtures.data("webp/animated.webp"), options: ImageDecodeOptions())
        var options = ImageEncodeOptions()
        options.lossless = true
        let data = try coder.encode(original, as: .webp, options: options)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        let animation = try #require(decoded.animation)
        #expect(animation.frameCount == 5 && animation.loopCount == 2)
        #expect((0..<5).map { animation.duration(at: $0) } == [0.1, 0.2, 0.05, 0.3, 0.1])
        for index in 0..<5 {
            #expect(try animation.frame(at: index).bitmap == (try #require(original.animation).frame(at: index)).bitmap)
        }
    }

    @Test func lossyAnimatedRoundTripKeepsColours() throws {
        let frames = colours.map { ImageFrame(bitmap: ImageBitmap(width: 16, height: 16, fill: $0), duration: 0.25) }
        let image = Image(bitmap: frames[0].bitmap, animation: ImageAnimation(frames: frames, loopCount: 0))
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.8
        let decoded = try coder.decode(try coder.encode(image, as: .webp, options: options), options: .init())
        let animation = try #require(decoded.animation)
        #expect(animation.frameCount == 4 && animation.loopCount == 0)
        for (index, colour) in colours.enumerated() {
            #expect(isClose(try animation.frame(at: index).bitmap[8, 8], colour, tolerance: 12))
            #expect(animation.duration(at: index) == 0.25)
        }
    }

    @Test func firstFrameOnlyEncodesAStill() throws {
        let original = try coder.decode(try Fixtures.data("webp/animated.webp"), options: ImageDecodeOptions())
        var options = ImageEncodeOptions()
        options.firstFrameOnly = true
        options.lossless = true
        let info = try coder.imageInfo(for: try coder.encode(original, as: .webp, options: options))
        #expect(info.frameCount == 1 && info.width == 40)
    }

    @Test func framesOfDifferentSizesAreRejected() throws {
        let frames = [
            ImageFrame(bitmap: ImageBitmap(width: 8, height: 8, fill: .white), duration: 0.1),
            ImageFrame(bitmap: ImageBitmap(width: 4, height: 8, fill: .black), duration: 0.1),
        ]
        let image = Image(bitmap: frames[0].bitmap, animation: ImageAnimation(frames: frames, loopCount: 0))
        #expect(throws: WebImageError.self) { try coder.encode(image, as: .webp, options: .init()) }
    }
}
