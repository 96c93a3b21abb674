import Foundation
import Testing

@testable import WebImage

/// Gray images written as grayscale: PNG colour types 0 and 4, one-component JPEG.
@Suite("Encoding: gray images are written as grayscale")
struct GrayscaleEncodingTests {
    /// 64x48 noisy gray levels over every value (more than a palette would fit well), with alpha
    /// varying by row when `alpha`.
    static func grayImage(alpha: Bool = false, metadata: ImageMetadata = ImageMetadata()) throws -> Image {
        var random = SplitMix64(seed: 43)
        var pixels: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 {
                let level = UInt8(truncatingIfNeeded: x * 4 + y + Int(random.next() % 9))
                pixels += [level, level, level, alpha ? UInt8(255 - y * 5) : 255]
            }
        }
        return Image(
            bitmap: try ImageBitmap(width: 64, height: 48, pixels: pixels), hasAlpha: alpha, metadata: metadata)
    }

    static func encode(_ image: Image, as format: ImageFormat, configure: (inout ImageEncodeOptions) -> Void = { _ in })
        throws -> Data
    {
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.9
        options.keptMetadata = .all
        configure(&options)
        return try ImageCodersManager.shared.encode(image, as: format, options: options)
    }

    static func decode(_ data: Data) throws -> Image {
        var options = ImageDecodeOptions()
        options.convertToSRGB = false
        return try ImageCodersManager.shared.decode(data, options: options)
    }

    /// The colour type byte of a PNG's IHDR.
    static func pngColourType(_ png: Data) -> UInt8? { png.count > 25 ? png[png.startIndex + 25] : nil }

    /// The component count of a JPEG's first SOF segment.
    static func jpegComponents(_ jpeg: Data) -> Int? {
        let bytes = [UInt8](jpeg)
        var offset = 2
        while offset + 9 < bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if (0xC0...0xC2).contains(marker) { return Int(bytes[offset + 9]) }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return nil
    }

    @Test(arguments: [false, true])
    func aGrayPNGIsWrittenAsGrayAndDecodesToTheSamePixels(alpha: Bool) throws {
        let image = try Self.grayImage(alpha: alpha)
        let png = try Self.encode(image, as: .png)
        #expect(Self.pngColourType(png) == (alpha ? 4 : 0))
        #expect(try Self.decode(png).bitmap.pixels == image.bitmap.pixels)
    }

    @Test func aGrayJPEGHasOneComponentAndDecodesToTheSameGray() throws {
        let image = try Self.grayImage()
        let jpeg = try Self.encode(image, as: .jpeg)
        #expect(Self.jpegComponents(jpeg) == 1)
        let decoded = try Self.decode(jpeg)
        #expect(decoded.bitmap.isGray)
        #expect(PixelMetrics.maxChannelDifference(decoded.bitmap, image.bitmap) <= 12)
        #expect(PixelMetrics.psnr(decoded.bitmap, image.bitmap) > 35)
    }

    @Test func aColourImageIsStillWrittenInColour() throws {
        var image = try Self.grayImage()
        image.bitmap[3, 5] = RGBA8(r: 10, g: 200, b: 30, a: 255)
        #expect(Self.pngColourType(try Self.encode(image, as: .png)) == 2)
        #expect(Self.jpegComponents(try Self.encode(image, as: .jpeg)) == 3)
    }

    @Test func writesGrayscaleOffKeepsColourTypes() throws {
        let image = try Self.grayImage(alpha: true)
        #expect(Self.pngColourType(try Self.encode(image, as: .png) { $0.writesGrayscale = false }) == 6)
        let opaque = try Self.grayImage()
        #expect(Self.jpegComponents(try Self.encode(opaque, as: .jpeg) { $0.writesGrayscale = false }) == 3)
    }

    @Test func anSRGBProfileIsDroppedAGrayOneKeptAndAnotherRGBOneKeepsColour() throws {
        let srgb = try Fixtures.data("metadata/srgb.icc")
        let grayProfile = try Fixtures.data("color/gray-gamma18.icc")
        let p3 = try Fixtures.data("color/display-p3.icc")
        for format in [ImageFormat.png, .jpeg] {
            let dropped = try Self.encode(Self.grayImage(metadata: ImageMetadata(iccProfile: srgb)), as: format)
            #expect(format == .png ? Self.pngColourType(dropped) == 0 : Self.jpegComponents(dropped) == 1)
            #expect(try Self.decode(dropped).metadata.iccProfile == nil)

            let gray = try Self.encode(Self.grayImage(metadata: ImageMetadata(iccProfile: grayProfile)), as: format)
            #expect(format == .png ? Self.pngColourType(gray) == 0 : Self.jpegComponents(gray) == 1)
            #expect(try Self.decode(gray).metadata.iccProfile == grayProfile)

            let wide = try Self.encode(Self.grayImage(metadata: ImageMetadata(iccProfile: p3)), as: format)
            #expect(format == .png ? Self.pngColourType(wide) == 2 : Self.jpegComponents(wide) == 3)
            #expect(try Self.decode(wide).metadata.iccProfile == p3)
        }
    }

    @Test func aFewGrayLevelsStillTakeTheSmallerPalette() throws {
        // Black and white at random: a 1-bit palette beats 8-bit gray.
        var random = SplitMix64(seed: 7)
        let pixels = (0..<(32 * 32)).flatMap { _ -> [UInt8] in
            let level: UInt8 = random.next() % 2 == 0 ? 0 : 255
            return [level, level, level, 255]
        }
        let image = Image(bitmap: try ImageBitmap(width: 32, height: 32, pixels: pixels), hasAlpha: false)
        let png = try Self.encode(image, as: .png)
        #expect(Self.pngColourType(png) == 3)
        #expect(try Self.decode(png).bitmap.pixels == pixels)
    }
}
