import Foundation
import Testing

@testable import WebImage

/// What AVIF, HEIC and JPEG XL encoding promise alike: lossy round trips that trade bytes for
/// quality, a file-size limit, metadata and the formats they refuse. What differs stays in each
/// format's own tests.
@Suite("AVIF, HEIC and JPEG XL encoding alike")
struct SharedEncodingTests {
    /// The formats this build has.
    static let formats: [any CoderFixtures.Type] = {
        var formats: [any CoderFixtures.Type] = []
        #if AVIF
            formats.append(AVIFTestSupport.self)
        #endif
        #if HEIC
            formats.append(HEICTestSupport.self)
        #endif
        #if JPEGXL
            formats.append(JPEGXLTestSupport.self)
        #endif
        return formats
    }()

    @Test(arguments: formats)
    func aLossyRoundTripKeepsAbove30dBAndQualityTradesBytes(fixtures: any CoderFixtures.Type) throws {
        let source = try fixtures.photo()
        let high = try fixtures.encode(source) { $0.compressionQuality = 0.9 }
        let low = try fixtures.encode(source) { $0.compressionQuality = 0.3 }
        #expect(ImageFormat(detecting: high) == fixtures.format)
        #expect(low.count < high.count)
        let decoded = try fixtures.decode(high)
        #expect(decoded.bitmap.size == source.bitmap.size && !decoded.hasAlpha)
        let psnr = PixelMetrics.psnr(decoded.bitmap, source.bitmap)
        #expect(psnr >= 30, "\(psnr) dB")
    }

    /// HEIC's lossless coding keeps what is visible only (see its own tests).
    @Test(arguments: formats.filter { $0.format != .heic })
    func losslessKeepsEveryPixelAndAlphaExactly(fixtures: any CoderFixtures.Type) throws {
        let bitmap = ImageBitmap.noise(width: 24, height: 16, alpha: .columns)
        let data = try fixtures.encode(Image(bitmap: bitmap, format: .png, hasAlpha: true)) { $0.lossless = true }
        let decoded = try fixtures.decode(data)
        #expect(decoded.hasAlpha)
        #expect(decoded.bitmap == bitmap)
    }

    @Test(arguments: formats)
    func maxFileSizeLowersTheQualityUntilTheFileFits(fixtures: any CoderFixtures.Type) throws {
        let source = try fixtures.photo()
        let full = try fixtures.encode(source) { $0.compressionQuality = 1 }
        let limit = full.count / 3
        let fitted = try fixtures.encode(source) {
            $0.compressionQuality = 1
            $0.maxFileSize = limit
        }
        #expect(fitted.count <= limit && fitted.count > limit / 2)
        #expect(try fixtures.decode(fitted).bitmap.size == source.bitmap.size)
    }

    /// JPEG XL keeps its boxes otherwise (see its own tests).
    @Test(arguments: formats.filter { $0.format != .jpegXL })
    func keptMetadataTravelsAndEXIFOrientationIsReset(fixtures: any CoderFixtures.Type) throws {
        let exif = Data([0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0])
        let icc = try Fixtures.data("metadata/srgb.icc")
        let xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
        var source = try fixtures.photo()
        source.metadata = ImageMetadata(exif: exif, iccProfile: icc, xmp: xmp)
        let kept = try fixtures.encode(source) { $0.keptMetadata = .all }
        let decoded = try fixtures.decode(kept) { $0.readMetadata = .all }
        #expect(decoded.metadata.iccProfile == icc)
        #expect(decoded.metadata.xmp == xmp)
        let readBack = try #require(decoded.metadata.exif)
        #expect(readBack.count == exif.count && readBack[19] == 1, "orientation rewritten to 1")
        #expect(decoded.orientation == .up && decoded.bitmap.size == source.bitmap.size)
        let byDefault = try fixtures.decode(try fixtures.encode(source)) { $0.readMetadata = .all }
        #expect(byDefault.metadata == ImageMetadata(iccProfile: icc))
        let stripped = try fixtures.decode(try fixtures.encode(source) { $0.keptMetadata = [] }) {
            $0.readMetadata = .all
        }
        #expect(stripped.metadata == ImageMetadata())
    }

    @Test(arguments: formats)
    func encodingToAnotherFormatIsUnsupported(fixtures: any CoderFixtures.Type) throws {
        let image = Image(bitmap: ImageBitmap(width: 2, height: 2, fill: .white), format: .png, hasAlpha: false)
        #expect(fixtures.coder.canEncode(to: fixtures.format))
        for other in [ImageFormat.png, .avif, .heic, .jpegXL] where other != fixtures.format {
            #expect(!fixtures.coder.canEncode(to: other), "\(other)")
            #expect {
                _ = try fixtures.coder.encode(image, as: other, options: ImageEncodeOptions())
            } throws: { error in
                (error as? WebImageError)?.code == .unsupportedFormat
            }
        }
    }
}
