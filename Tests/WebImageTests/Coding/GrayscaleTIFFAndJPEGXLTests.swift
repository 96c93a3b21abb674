import Foundation
import Testing

@testable import WebImage

#if JPEGXL
    import CJXL
#endif

/// Gray images written as grayscale by the TIFF and JPEG XL encoders, which hold it too.
@Suite("Encoding: gray TIFF and JPEG XL")
struct GrayscaleTIFFAndJPEGXLTests {
    /// The value of `tag` (a SHORT) in the first IFD of a little-endian TIFF.
    static func tiffShort(_ tiff: Data, tag: UInt16) -> Int? {
        let bytes = [UInt8](tiff)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count > 8, bytes[0] == 0x49 else { return nil }
        let ifd = u16(4) | u16(6) << 16
        guard ifd + 2 <= bytes.count else { return nil }
        for entry in 0..<u16(ifd) {
            let at = ifd + 2 + entry * 12
            guard at + 12 <= bytes.count else { return nil }
            if u16(at) == Int(tag) { return u16(at + 8) }
        }
        return nil
    }

    #if TIFF
        @Test(arguments: [false, true])
        func aGrayTIFFIsMinIsBlackWithOneOrTwoSamplesAndDecodesToTheSamePixels(alpha: Bool) throws {
            let image = try GrayscaleEncodingTests.grayImage(alpha: alpha)
            let tiff = try GrayscaleEncodingTests.encode(image, as: .tiff)
            #expect(Self.tiffShort(tiff, tag: 262) == 1)  // Photometric: min-is-black
            #expect(Self.tiffShort(tiff, tag: 277) == (alpha ? 2 : 1))  // SamplesPerPixel
            #expect(try GrayscaleEncodingTests.decode(tiff).bitmap.pixels == image.bitmap.pixels)
            let colour = try GrayscaleEncodingTests.encode(image, as: .tiff) { $0.writesGrayscale = false }
            #expect(Self.tiffShort(colour, tag: 262) == 2 && Self.tiffShort(colour, tag: 277) == (alpha ? 4 : 3))
        }
    #endif

    #if JPEGXL
        /// The colour channels a JPEG XL file's header declares.
        static func jxlColourChannels(_ data: Data) -> UInt32? {
            guard let decoder = JxlDecoderCreate(nil) else { return nil }
            defer { JxlDecoderDestroy(decoder) }
            guard JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_BASIC_INFO.rawValue)) == JXL_DEC_SUCCESS else {
                return nil
            }
            return data.withUnsafeBytes { raw -> UInt32? in
                guard
                    JxlDecoderSetInput(decoder, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
                        == JXL_DEC_SUCCESS
                else { return nil }
                JxlDecoderCloseInput(decoder)
                guard JxlDecoderProcessInput(decoder) == JXL_DEC_BASIC_INFO else { return nil }
                var info = JxlBasicInfo()
                guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else { return nil }
                return info.num_color_channels
            }
        }

        @Test(arguments: [false, true])
        func aGrayJPEGXLHasOneColourChannelAndLosslessDecodesToTheSamePixels(alpha: Bool) throws {
            let image = try GrayscaleEncodingTests.grayImage(alpha: alpha)
            let lossless = try GrayscaleEncodingTests.encode(image, as: .jpegXL) { $0.lossless = true }
            #expect(Self.jxlColourChannels(lossless) == 1)
            #expect(try GrayscaleEncodingTests.decode(lossless).bitmap.pixels == image.bitmap.pixels)
            let lossy = try GrayscaleEncodingTests.encode(image, as: .jpegXL)
            #expect(Self.jxlColourChannels(lossy) == 1)
            let decoded = try GrayscaleEncodingTests.decode(lossy).bitmap
            #expect(decoded.isGray && decoded.width == 64)
            let colour = try GrayscaleEncodingTests.encode(image, as: .jpegXL) { $0.writesGrayscale = false }
            #expect(Self.jxlColourChannels(colour) == 3)
        }

        @Test func aColourFrameKeepsAJPEGXLAnimationInColour() throws {
            let gray = try GrayscaleEncodingTests.grayImage()
            var colourBitmap = gray.bitmap
            colourBitmap[3, 3] = RGBA8(r: 200, g: 10, b: 10, a: 255)
            let animation = ImageAnimation(
                frames: [
                    ImageFrame(bitmap: gray.bitmap, duration: 0.1), ImageFrame(bitmap: colourBitmap, duration: 0.1),
                ],
                loopCount: 0)
            let image = Image(bitmap: gray.bitmap, animation: animation)
            #expect(Self.jxlColourChannels(try GrayscaleEncodingTests.encode(image, as: .jpegXL)) == 3)
            let allGray = Image(
                bitmap: gray.bitmap,
                animation: ImageAnimation(
                    frames: [
                        ImageFrame(bitmap: gray.bitmap, duration: 0.1), ImageFrame(bitmap: gray.bitmap, duration: 0.1),
                    ],
                    loopCount: 0))
            let encoded = try GrayscaleEncodingTests.encode(allGray, as: .jpegXL)
            #expect(Self.jxlColourChannels(encoded) == 1)
            #expect(try GrayscaleEncodingTests.decode(encoded).frameCount == 2)
        }
    #endif
}

#if AVIF
    import CAVIF

    /// Gray images written as monochrome (4:0:0) AVIF.
    @Suite("Encoding: gray AVIF")
    struct GrayscaleAVIFTests {
        /// The pixel format of an AVIF file's primary image.
        static func yuvFormat(_ data: Data) -> avifPixelFormat? {
            guard let decoder = avifDecoderCreate() else { return nil }
            defer { avifDecoderDestroy(decoder) }
            return data.withUnsafeBytes { raw -> avifPixelFormat? in
                guard
                    avifDecoderSetIOMemory(decoder, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
                        == AVIF_RESULT_OK, avifDecoderParse(decoder) == AVIF_RESULT_OK
                else { return nil }
                return decoder.pointee.image.pointee.yuvFormat
            }
        }

        @Test(arguments: [false, true])
        func aGrayAVIFIsMonochromeAndLosslessDecodesToTheSamePixels(alpha: Bool) throws {
            let image = try GrayscaleEncodingTests.grayImage(alpha: alpha)
            let lossless = try GrayscaleEncodingTests.encode(image, as: .avif) { $0.lossless = true }
            #expect(Self.yuvFormat(lossless) == AVIF_PIXEL_FORMAT_YUV400)
            #expect(try GrayscaleEncodingTests.decode(lossless).bitmap.pixels == image.bitmap.pixels)
            let lossy = try GrayscaleEncodingTests.encode(image, as: .avif)
            #expect(Self.yuvFormat(lossy) == AVIF_PIXEL_FORMAT_YUV400)
            #expect(try GrayscaleEncodingTests.decode(lossy).bitmap.isGray)
            let colour = try GrayscaleEncodingTests.encode(image, as: .avif) { $0.writesGrayscale = false }
            #expect(Self.yuvFormat(colour) == AVIF_PIXEL_FORMAT_YUV420)
        }
    }
#endif
