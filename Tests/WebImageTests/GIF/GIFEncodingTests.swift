import Foundation
import Testing

@testable import WebImage

@Suite("GIF encoding")
struct GIFEncodingTests {
    let coder = GIFCoder()

    /// A bitmap with `count` distinct opaque colours, one per pixel, in a 16-wide grid.
    func manyColours(_ count: Int, transparentFirstPixel: Bool = false) throws -> ImageBitmap {
        var pixels: [UInt8] = []
        for i in 0..<(16 * 16) {
            let c = i % count
            pixels += [UInt8(c * 7 % 256), UInt8(c * 13 % 256), UInt8(c * 31 % 256), 255]
        }
        if transparentFirstPixel { pixels[3] = 0 }
        return try ImageBitmap(width: 16, height: 16, pixels: pixels)
    }

    @Test("a still image with at most 256 colours round-trips exactly")
    func exactStill() throws {
        let bitmap = try manyColours(256)
        let data = try coder.encode(Image(bitmap: bitmap), as: .gif, options: ImageEncodeOptions())
        #expect(coder.canDecode(data))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == bitmap)
        #expect(decoded.animation == nil)
        #expect(try coder.imageInfo(for: data).loopCount == 1)
    }

    @Test("alpha below 128 becomes transparent next to 255 exact colours")
    func transparency() throws {
        var bitmap = try manyColours(255)
        bitmap[1, 0] = RGBA8(r: 9, g: 9, b: 9, a: 100)
        bitmap[2, 0] = RGBA8(r: 9, g: 9, b: 9, a: 200)
        let decoded = try coder.decode(
            try coder.encode(Image(bitmap: bitmap), as: .gif, options: ImageEncodeOptions()),
            options: ImageDecodeOptions())
        #expect(decoded.hasAlpha)
        #expect(decoded.bitmap[1, 0] == RGBA8.clear)
        #expect(decoded.bitmap[2, 0] == RGBA8(r: 9, g: 9, b: 9))
        #expect(decoded.bitmap[5, 5] == bitmap[5, 5])
        #expect(decoded.bitmap[15, 15] == bitmap[15, 15])
    }

    @Test("256 colours plus transparency fall back to 255 close colours and a transparent index")
    func fullPaletteWithTransparency() throws {
        let bitmap = try manyColours(256, transparentFirstPixel: true)
        let decoded = try coder.decode(
            try coder.encode(Image(bitmap: bitmap), as: .gif, options: ImageEncodeOptions()),
            options: ImageDecodeOptions())
        #expect(decoded.bitmap[0, 0] == RGBA8.clear)
        var expected = bitmap
        expected[0, 0] = .clear
        #expect(PixelMetrics.maxChannelDifference(decoded.bitmap, expected) <= 8)
    }

    @Test("more than 256 colours are reduced to a close palette")
    func medianCut() throws {
        let bitmap = ImageBitmap(width: 64, height: 64) { buffer in
            for y in 0..<64 {
                for x in 0..<64 {
                    let i = (y * 64 + x) * 4
                    buffer[i] = UInt8(x * 4)
                    buffer[i + 1] = UInt8(y * 4)
                    buffer[i + 2] = UInt8((x + y) * 2)
                    buffer[i + 3] = 255
                }
            }
        }
        let decoded = try coder.decode(
            try coder.encode(Image(bitmap: bitmap), as: .gif, options: ImageEncodeOptions()),
            options: ImageDecodeOptions())
        #expect(PixelMetrics.maxChannelDifference(decoded.bitmap, bitmap) <= 24)
        #expect(!decoded.bitmap.containsTransparency)
    }

    @Test("an animation keeps frames, durations and loop count")
    func animationRoundTrip() throws {
        let colors = [GIFTestColor.red, GIFTestColor.green, GIFTestColor.blue]
        var frames = colors.enumerated().map { i, color in
            ImageFrame(bitmap: ImageBitmap(width: 6, height: 5, fill: color), duration: [0.05, 0.1, 0.734][i])
        }
        frames[1].bitmap[0, 0] = .clear  // must not show frame 0 beneath
        for loops in [0, 1, 3] {
            let image = Image(bitmap: frames[0].bitmap, animation: ImageAnimation(frames: frames, loopCount: loops))
            let data = try coder.encode(image, as: .gif, options: ImageEncodeOptions())
            let decoded = try #require(try coder.decode(data, options: ImageDecodeOptions()).animation)
            #expect(decoded.loopCount == loops)
            let back = try decoded.allFrames()
            #expect(back.count == 3)
            #expect(back.map(\.bitmap) == frames.map(\.bitmap))
            #expect(try GIFContainer.parse(data).frames.map(\.disposal) == [2, 2, 1])
            #expect(abs(back[0].duration - 0.05) < 1e-9)
            #expect(abs(back[1].duration - 0.1) < 1e-9)
            #expect(abs(back[2].duration - 0.73) < 1e-9)
        }
    }

    @Test("an opaque frame after an opaque frame is written as the rectangle that changed")
    func changedRectangles() throws {
        let first = try manyColours(200)
        var second = first
        second[5, 3] = GIFTestColor.yellow
        second[9, 7] = GIFTestColor.green
        let third = second  // unchanged: a 1×1 frame
        let frames = [first, second, third].map { ImageFrame(bitmap: $0, duration: 0.1) }
        let image = Image(bitmap: first, animation: ImageAnimation(frames: frames, loopCount: 0))
        let data = try coder.encode(image, as: .gif, options: ImageEncodeOptions())
        let container = try GIFContainer.parse(data)
        #expect(container.frames.map(\.disposal) == [1, 1, 1])
        let rect = container.frames[1]
        #expect(rect.x == 5 && rect.y == 3 && rect.width == 5 && rect.height == 5)
        #expect(container.frames[2].width == 1 && container.frames[2].height == 1)
        let back = try #require(try coder.decode(data, options: ImageDecodeOptions()).animation).allFrames()
        #expect(back.map(\.bitmap) == [first, second, third])
    }

    @Test("first-frame-only and still images write one frame")
    func firstFrameOnly() throws {
        let frames = [GIFTestColor.red, GIFTestColor.blue].map {
            ImageFrame(bitmap: ImageBitmap(width: 3, height: 3, fill: $0), duration: 0.2)
        }
        let image = Image(bitmap: frames[0].bitmap, animation: ImageAnimation(frames: frames, loopCount: 0))
        var options = ImageEncodeOptions()
        options.firstFrameOnly = true
        let info = try coder.imageInfo(for: try coder.encode(image, as: .gif, options: options))
        #expect(info.frameCount == 1)
        #expect(info.loopCount == 1)
    }

    @Test("lazy animations are encoded frame by frame")
    func lazySource() throws {
        var options = ImageDecodeOptions()
        options.lazyAnimatedFrames = true
        let source = try coder.decode(try Fixtures.data("gif/disposal_previous.gif"), options: options)
        let data = try coder.encode(source, as: .gif, options: ImageEncodeOptions())
        let back = try #require(try coder.decode(data, options: ImageDecodeOptions()).animation).allFrames()
        #expect(back.map(\.bitmap) == (try source.animation?.allFrames().map(\.bitmap)))
    }

    @Test("maxPixelSize scales frames down before encoding")
    func maxPixelSize() throws {
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 8, height: 8)
        let data = try coder.encode(
            Image(bitmap: ImageBitmap(width: 32, height: 16, fill: .black)), as: .gif, options: options)
        let info = try coder.imageInfo(for: data)
        #expect(info.width == 8 && info.height == 4)
    }

    @Test("frames of different sizes and other formats are refused")
    func refusals() throws {
        let frames = [
            ImageFrame(bitmap: ImageBitmap(width: 3, height: 3, fill: .black), duration: 0.1),
            ImageFrame(bitmap: ImageBitmap(width: 4, height: 3, fill: .black), duration: 0.1),
        ]
        let image = Image(bitmap: frames[0].bitmap, animation: ImageAnimation(frames: frames, loopCount: 0))
        #expect(throws: WebImageError.self) { try coder.encode(image, as: .gif, options: ImageEncodeOptions()) }
        #expect(throws: WebImageError.unsupportedFormat(.png)) {
            try coder.encode(image, as: .png, options: ImageEncodeOptions())
        }
    }
}
