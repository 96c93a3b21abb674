import Foundation
import Testing

@testable import WebImage

@Suite("PNG encoding")
struct PNGEncodingTests {
    private func roundTrip(_ image: Image, options: ImageEncodeOptions = ImageEncodeOptions()) throws -> (Data, Image) {
        let data = try PNGCoder().encode(image, as: .png, options: options)
        return (data, try PNGFixture.decodeStored(data))
    }

    @Test(
        "decode → encode → decode of an 8-bit RGBA PNG is bit-exact",
        arguments: ["rgba8", "rgba8_hidden_rgb", "pillow_rgba8", "rgba8_adam7"])
    func bitExactRoundTrip(name: String) throws {
        let original = try PNGFixture.decodeStored(PNGFixture.data(name))
        let (data, decoded) = try roundTrip(original)
        #expect(PNGFixture.colorType(of: data) == 6)
        #expect(decoded.bitmap == original.bitmap)
    }

    @Test("fully transparent pixels keep their colour through a round trip")
    func transparentPixelsKeepRGB() throws {
        let original = try PNGFixture.decodeStored(PNGFixture.data("rgba8_hidden_rgb"))
        // Column 0 is transparent with a non-zero colour by construction.
        #expect(original.bitmap[0, 3] == RGBA8(r: 0, g: 155, b: 200, a: 0))
        let (_, decoded) = try roundTrip(original)
        #expect(decoded.bitmap[0, 3] == RGBA8(r: 0, g: 155, b: 200, a: 0))
        #expect(decoded.bitmap[2, 6] == RGBA8(r: 80, g: 49, b: 200, a: 0))
    }

    @Test("an opaque image without alpha is written as RGB and decodes to the same pixels")
    func opaqueWritesRGB() throws {
        var image = try PNGFixture.decodeStored(PNGFixture.data("rgb16"))
        #expect(!image.hasAlpha)
        let (data, decoded) = try roundTrip(image)
        #expect(PNGFixture.colorType(of: data) == 2)
        #expect(decoded.bitmap == image.bitmap)
        #expect(!decoded.hasAlpha)
        // The same pixels flagged as having alpha stay RGBA.
        image.hasAlpha = true
        #expect(PNGFixture.colorType(of: try roundTrip(image).0) == 6)
    }

    @Test("transparent pixels keep the alpha channel even when hasAlpha is false")
    func transparencyForcesRGBA() throws {
        let bitmap = ImageBitmap(width: 3, height: 2, fill: RGBA8(r: 1, g: 2, b: 3, a: 4))
        let (data, decoded) = try roundTrip(Image(bitmap: bitmap, hasAlpha: false))
        #expect(PNGFixture.colorType(of: data) == 6)
        #expect(decoded.bitmap == bitmap)
    }

    @Test("the encoded pixels are upright: the orientation is applied")
    func appliesOrientation() throws {
        let stored = try PNGFixture.decodeStored(PNGFixture.data("exif_right"))
        #expect(stored.orientation == .right)
        let (_, decoded) = try roundTrip(stored)
        #expect(decoded.orientation == .up)
        #expect(decoded.bitmap.size == PixelSize(width: 2, height: 3))
        #expect(decoded.bitmap[0, 0] == RGBA8(r: 255, g: 255, b: 0))
        #expect(decoded.bitmap[1, 0] == RGBA8(r: 255, g: 0, b: 0))
        #expect(decoded.bitmap[1, 2] == RGBA8(r: 0, g: 0, b: 255))
    }

    @Test("maxPixelSize scales down to fit, keeping the aspect ratio, and never up")
    func maxPixelSize() throws {
        let image = Image(bitmap: ImageBitmap(width: 40, height: 20, fill: RGBA8(r: 9, g: 99, b: 199)), hasAlpha: false)
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 10, height: 10)
        let (_, small) = try roundTrip(image, options: options)
        #expect(small.bitmap.size == PixelSize(width: 10, height: 5))
        #expect(small.bitmap[5, 2] == RGBA8(r: 9, g: 99, b: 199))
        options.maxPixelSize = PixelSize(width: 400, height: 400)
        #expect(try roundTrip(image, options: options).1.bitmap.size == PixelSize(width: 40, height: 20))
    }

    @Test("an animation encodes as an APNG, or its first frame alone with firstFrameOnly")
    func animationAsAPNGOrFirstFrame() throws {
        let first = ImageBitmap(width: 2, height: 2, fill: RGBA8(r: 10, g: 20, b: 30, a: 40))
        let second = ImageBitmap(width: 2, height: 2, fill: .white)
        let animation = ImageAnimation(
            frames: [ImageFrame(bitmap: first, duration: 0.1), ImageFrame(bitmap: second, duration: 0.1)],
            loopCount: 0)
        let (_, decoded) = try roundTrip(Image(bitmap: first, animation: animation))
        #expect(decoded.bitmap == first)
        #expect(try decoded.animation?.allFrames().map(\.bitmap) == [first, second])
        var options = ImageEncodeOptions()
        options.firstFrameOnly = true
        let (_, still) = try roundTrip(Image(bitmap: first, animation: animation), options: options)
        #expect(still.bitmap == first && still.frameCount == 1)
    }

    @Test("only PNG is an encode target")
    func otherFormatsRefused() throws {
        let image = Image(bitmap: ImageBitmap(width: 1, height: 1, fill: .black))
        #expect(PNGCoder().canEncode(to: .png))
        #expect(!PNGCoder().canEncode(to: .jpeg))
        #expect(throws: WebImageError.unsupportedFormat(.jpeg)) {
            try PNGCoder().encode(image, as: .jpeg, options: ImageEncodeOptions())
        }
    }
}
