import Foundation
import Testing

@testable import WebImage

/// What AVIF, HEIC and JPEG XL decoding promise alike, on fixtures their generators made alike:
/// stills and alpha against the reference decodes, orientation applied or reported, thumbnails,
/// the pixel limit, and truncated files.
@Suite("AVIF, HEIC and JPEG XL decoding alike")
struct SharedDecodingTests {
    /// The formats this build has, each with its tolerance against the reference decode of
    /// `rotated`: the lossy AVIF is within 3 levels of Pillow's decode; HEIC decodes as
    /// pillow-heif does and the JPEG XL file is lossless.
    static let formats: [(any CoderFixtures.Type, Int)] = {
        var formats: [(any CoderFixtures.Type, Int)] = []
        #if AVIF
            formats.append((AVIFTestSupport.self, 3))
        #endif
        #if HEIC
            formats.append((HEICTestSupport.self, 0))
        #endif
        #if JPEGXL
            formats.append((JPEGXLTestSupport.self, 0))
        #endif
        return formats
    }()

    /// The HEIF-based formats, each with its `ftyp` brand.
    static let heifBrands: [(any CoderFixtures.Type, String)] = {
        var formats: [(any CoderFixtures.Type, String)] = []
        #if AVIF
            formats.append((AVIFTestSupport.self, "avif"))
        #endif
        #if HEIC
            formats.append((HEICTestSupport.self, "heic"))
        #endif
        return formats
    }()

    /// The HEIF-based formats' opaque fixtures, each with its size and its tolerance against the
    /// reference decode. AVIF: 10- and 12-bit pictures are scaled to 8 bits, and libavif versions
    /// round that step apart by one more level than 8-bit ones. HEIC: both sides run libde265
    /// (deterministic) and libheif's integer YUV→RGB conversion, so 4:4:4 pictures, 10-bit
    /// included, come out identical; the 4:2:0 one differs by 1 in about 2 % of its samples
    /// (pillow-heif's libheif 1.23 upsamples chroma with other rounding than Debian's 1.15,
    /// measured against `heif-convert` 1.15 too, which matches this decoder). JPEG XL's are exact
    /// (see its own tests).
    static let opaquePictures: [(any CoderFixtures.Type, String, PixelSize, Int)] = {
        var pictures: [(any CoderFixtures.Type, String, PixelSize, Int)] = []
        #if AVIF
            pictures += [
                (AVIFTestSupport.self, "still", PixelSize(width: 64, height: 48), 2),
                (AVIFTestSupport.self, "photo", PixelSize(width: 192, height: 128), 2),
                (AVIFTestSupport.self, "depth10", PixelSize(width: 64, height: 48), 3),
                (AVIFTestSupport.self, "depth12", PixelSize(width: 64, height: 48), 3),
            ]
        #endif
        #if HEIC
            pictures += [
                (HEICTestSupport.self, "still", PixelSize(width: 64, height: 48), 0),
                (HEICTestSupport.self, "photo", PixelSize(width: 192, height: 128), 1),
                (HEICTestSupport.self, "depth10", PixelSize(width: 64, height: 48), 0),
            ]
        #endif
        return pictures
    }()

    @Test(arguments: opaquePictures)
    func opaquePicturesMatchTheReferenceDecode(
        fixtures: any CoderFixtures.Type, name: String, size: PixelSize, tolerance: Int
    ) throws {
        let data = try fixtures.data(name)
        #expect(fixtures.coder.canDecode(data))
        #expect(ImageCodersManager.shared.canDecode(data))
        let image = try fixtures.decode(data)
        #expect(image.format == fixtures.format && !image.hasAlpha && image.animation == nil)
        #expect(image.bitmap.size == size)
        let reference = try fixtures.reference(name, image.bitmap.size)
        let difference = PixelMetrics.maxVisibleDifference(image.bitmap, reference)
        #expect(difference <= tolerance, "\(name): \(difference)")
    }

    /// The HEIF-based formats' `alpha` fixture, with its tolerance against the reference decode and
    /// the least green the half-transparent block may keep. (JPEG XL's is exact: see its own tests.)
    static let alphaPictures: [(any CoderFixtures.Type, Int, UInt8)] = {
        var pictures: [(any CoderFixtures.Type, Int, UInt8)] = []
        #if AVIF
            pictures.append((AVIFTestSupport.self, 2, 198))
        #endif
        #if HEIC
            pictures.append((HEICTestSupport.self, 0, 195))
        #endif
        return pictures
    }()

    @Test(arguments: alphaPictures)
    func alphaIsStraightAndMatchesTheReferenceDecode(
        fixtures: any CoderFixtures.Type, tolerance: Int, leastGreen: UInt8
    ) throws {
        let image = try fixtures.decode(try fixtures.data("alpha"))
        #expect(image.hasAlpha)
        let reference = try fixtures.reference("alpha", PixelSize(width: 32, height: 32))
        let difference = PixelMetrics.maxVisibleDifference(image.bitmap, reference)
        #expect(difference <= tolerance, "\(difference)")
        // Not premultiplied: the half-transparent green block keeps its full green.
        #expect(image.bitmap[4, 20].a == 128 && image.bitmap[4, 20].g >= leastGreen)
        #expect(image.bitmap[20, 20].a == 0)
    }

    /// `rotated` is stored 48×32 with orientation 5 (transpose): a red block stored top-left, a
    /// blue one bottom-right.
    @Test(arguments: formats)
    func rotationAndMirroringAreAppliedOrReported(fixtures: any CoderFixtures.Type, tolerance: Int) throws {
        let data = try fixtures.data("rotated")
        let info = try fixtures.coder.imageInfo(for: data)
        #expect(info.orientation == .leftMirrored && info.width == 32 && info.height == 48)
        let upright = try fixtures.decode(data)
        #expect(upright.orientation == .up && upright.bitmap.size == PixelSize(width: 32, height: 48))
        let reference = try fixtures.reference("rotated", upright.bitmap.size)
        #expect(PixelMetrics.maxVisibleDifference(upright.bitmap, reference) <= tolerance)
        let stored = try fixtures.decode(data) { $0.applyOrientation = false }
        #expect(stored.orientation == .leftMirrored && stored.bitmap.size == PixelSize(width: 48, height: 32))
        #expect(stored.orientedSize == upright.bitmap.size)
        // Transposed, the blocks stay in their corners.
        #expect(stored.bitmap[2, 2].r > 200 && upright.bitmap[2, 2].r > 200)
        #expect(stored.bitmap[46, 30].b > 200 && upright.bitmap[30, 46].b > 200)
        #expect(stored.bitmap.applyingOrientation(.leftMirrored) == upright.bitmap)
    }

    @Test(arguments: formats.map(\.0))
    func aThumbnailIsDecodedWholeAndResampled(fixtures: any CoderFixtures.Type) throws {
        let image = try fixtures.decode(try fixtures.data("photo")) {
            $0.thumbnailPixelSize = PixelSize(width: 96, height: 96)
        }
        #expect(image.isThumbnail && image.bitmap.size == PixelSize(width: 96, height: 64))
        let turned = try fixtures.decode(try fixtures.data("rotated")) {
            $0.thumbnailPixelSize = PixelSize(width: 16, height: 16)
        }
        #expect(turned.isThumbnail && turned.bitmap.size == PixelSize(width: 11, height: 16))
    }

    @Test(arguments: formats.map(\.0))
    func aPictureAboveThePixelLimitIsRefusedBeforeDecoding(fixtures: any CoderFixtures.Type) throws {
        let photo = try fixtures.data("photo")
        #expect {
            _ = try fixtures.decode(photo) { $0.maxPixelCount = 192 * 128 - 1 }
        } throws: { error in
            (error as? WebImageError)?.code == .imageTooLarge
        }
        #expect(try fixtures.decode(photo) { $0.maxPixelCount = 192 * 128 }.bitmap.pixels.count == 192 * 128 * 4)
    }

    /// A header alone (`ftyp` naming the format's brand) sniffs as the format but holds no picture.
    @Test(arguments: heifBrands)
    func truncatedFilesAndAHeaderAloneAreBadData(fixtures: any CoderFixtures.Type, brand: String) throws {
        let data = try fixtures.data("photo")
        for length in [0, 11, 12, 40, 200, data.count / 2, data.count - 1] {
            #expect(performing: { _ = try fixtures.decode(Data(data.prefix(length))) }, throws: isBadImageData)
        }
        let header = Data([0, 0, 0, 0x18] + Array("ftyp\(brand)".utf8) + [0, 0, 0, 0] + Array("mif1\(brand)".utf8))
        #expect(fixtures.coder.canDecode(header))
        #expect(performing: { _ = try fixtures.decode(header) }, throws: isBadImageData)
        #expect(performing: { _ = try fixtures.coder.imageInfo(for: header) }, throws: isBadImageData)
    }
}
