import Foundation
import Testing

@testable import WebImage

@Suite("GIF decoding")
struct GIFDecodingTests {
    let coder = GIFCoder()

    @Test("a still GIF decodes to its known colours")
    func stillColours() throws {
        let image = try coder.decode(try Fixtures.data("gif/static.gif"), options: ImageDecodeOptions())
        #expect(image.width == 16 && image.height == 16)
        #expect(image.format == .gif)
        #expect(image.animation == nil)
        #expect(!image.isAnimated)
        #expect(!image.hasAlpha)
        #expect(image.bitmap[0, 0] == GIFTestColor.red)
        #expect(image.bitmap[15, 0] == GIFTestColor.green)
        #expect(image.bitmap[0, 15] == GIFTestColor.blue)
        #expect(image.bitmap[15, 15] == GIFTestColor.white)
        #expect(image.bitmap[7, 7] == GIFTestColor.red)
        #expect(image.bitmap[8, 8] == GIFTestColor.white)
    }

    @Test("interlaced rows land in display order")
    func interlaced() throws {
        let image = try coder.decode(try Fixtures.data("gif/interlaced.gif"), options: ImageDecodeOptions())
        let colors = [GIFTestColor.red, GIFTestColor.green, GIFTestColor.blue, GIFTestColor.white]
        for y in 0..<19 {
            #expect(image.bitmap[0, y] == colors[y % 4], "row \(y)")
            #expect(image.bitmap[4, y] == colors[y % 4], "row \(y)")
        }
    }

    @Test("local colour tables override the global one per frame")
    func localPalettes() throws {
        let frames = try #require(
            try coder.decode(try Fixtures.data("gif/local_palette.gif"), options: ImageDecodeOptions()).animation
        ).allFrames()
        #expect(frames.count == 3)
        #expect(frames[0].bitmap[3, 3] == GIFTestColor.red)
        #expect(frames[1].bitmap[0, 0] == GIFTestColor.yellow)
        #expect(frames[1].bitmap[3, 0] == GIFTestColor.red)
        #expect(frames[2].bitmap[3, 3] == GIFTestColor.white)
        #expect(frames[2].bitmap[0, 3] == GIFTestColor.yellow)
        #expect(frames[2].bitmap[2, 2] == GIFTestColor.red)
    }

    @Test("frames compressed by Pillow match Pillow's composited pixels exactly")
    func matchesPillow() throws {
        let image = try coder.decode(try Fixtures.data("gif/pillow_noise.gif"), options: ImageDecodeOptions())
        let expected = [UInt8](try Fixtures.data("gif/pillow_noise.rgba"))
        let frames = try #require(image.animation).allFrames()
        #expect(frames.count == 3)
        let frameBytes = 48 * 40 * 4
        for (i, frame) in frames.enumerated() {
            #expect(frame.bitmap.pixels == Array(expected[(i * frameBytes)..<((i + 1) * frameBytes)]), "frame \(i)")
        }
        #expect(image.animation?.loopCount == 2)
        #expect(frames.allSatisfy { abs($0.duration - 0.04) < 1e-9 })
    }

    @Test("imageInfo reads size, frames, loops and alpha without decoding")
    func info() throws {
        let still = try coder.imageInfo(for: try Fixtures.data("gif/static.gif"))
        #expect(still == ImageInfo(format: .gif, width: 16, height: 16, frameCount: 1, loopCount: 1, hasAlpha: false))
        let animated = try coder.imageInfo(for: try Fixtures.data("gif/disposal_previous.gif"))
        #expect(animated.width == 8 && animated.height == 8)
        #expect(animated.frameCount == 3)
        #expect(animated.loopCount == 0)
        #expect(animated.hasAlpha)
    }

    @Test("canDecode accepts both signatures and nothing else")
    func signatures() {
        #expect(coder.canDecode(Data("GIF87a".utf8)))
        #expect(coder.canDecode(Data("GIF89a....".utf8)))
        #expect(!coder.canDecode(Data("GIF8".utf8)))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])))
        #expect(coder.canEncode(to: .gif))
        #expect(!coder.canEncode(to: .png))
    }

    @Test("the built-in coders decode GIF through the manager")
    func registered() throws {
        let manager = ImageCodersManager()
        let image = try manager.decode(try Fixtures.data("gif/static.gif"), options: ImageDecodeOptions())
        #expect(image.format == .gif)
    }

    @Test("first-frame-only gives a still image of frame 0")
    func firstFrameOnly() throws {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let image = try coder.decode(try Fixtures.data("gif/disposal_none.gif"), options: options)
        #expect(image.animation == nil)
        #expect(!image.isAnimated)
        #expect(image.bitmap[3, 3] == GIFTestColor.red)
    }

    @Test("the scale factor option sets the image scale")
    func scale() throws {
        var options = ImageDecodeOptions()
        options.scaleFactor = 2
        #expect(try coder.decode(try Fixtures.data("gif/static.gif"), options: options).scale == 2)
    }
}
