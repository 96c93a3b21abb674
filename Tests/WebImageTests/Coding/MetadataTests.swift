import Foundation
import Testing

@testable import WebImage

/// EXIF, ICC and XMP: read from files Pillow wrote, kept or stripped on encode.
@Suite("Metadata: EXIF, ICC and XMP read, kept and stripped")
struct MetadataTests {
    static let formats: [(ImageFormat, String)] = [(.jpeg, "jpg"), (.png, "png"), (.webp, "webp")]

    /// Decodes keeping the pixels and profile as stored: these tests are about the blocks, and
    /// converting to sRGB drops the profile (ColorManagementTests).
    static func decode(_ data: Data, reading kinds: ImageMetadata.Kinds = [.iccProfile]) throws -> Image {
        var options = ImageDecodeOptions()
        options.readMetadata = kinds
        options.convertToSRGB = false
        return try ImageCodersManager.shared.decode(data, options: options)
    }

    static func encode(_ image: Image, as format: ImageFormat, keeping kinds: ImageMetadata.Kinds) throws -> Data {
        var options = ImageEncodeOptions()
        options.keptMetadata = kinds
        options.compressionQuality = 0.9
        return try ImageCodersManager.shared.encode(image, as: format, options: options)
    }

    static func orientation(of exif: Data?) -> ImageOrientation? {
        exif.flatMap { EXIFOrientation.read(fromExifBlock: Array($0)) }
    }

    /// The profile `large_icc.jpg` carries (see the fixture generator).
    static func largeProfile() throws -> Data {
        let header = try Fixtures.data("metadata/srgb.icc").prefix(128)
        return header + Data((0..<(150_000 - 128)).map { UInt8(($0 * 7) & 0xFF) })
    }

    /// Marker bytes of a JPEG's segments before its first scan.
    static func segmentMarkers(of jpeg: Data) -> [UInt8] {
        var markers: [UInt8] = []
        var offset = jpeg.startIndex + 2
        while offset + 4 <= jpeg.endIndex, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            markers.append(jpeg[offset + 1])
            offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        }
        return markers
    }

    // MARK: Reading what Pillow wrote

    @Test(arguments: formats)
    func decodingKeepsTheICCProfileAndReadsEXIFAndXMPOnlyWhenAsked(format: ImageFormat, ext: String) throws {
        let data = try Fixtures.data("metadata/photo.\(ext)")
        let profile = try Fixtures.data("metadata/srgb.icc")
        let plain = try Self.decode(data)
        #expect(plain.metadata == ImageMetadata(iccProfile: profile))

        let full = try Self.decode(data, reading: .all)
        #expect(full.metadata.iccProfile == profile)
        #expect(full.metadata.xmp == (try Fixtures.data("metadata/metadata.xmp")))
        let exif = try #require(full.metadata.exif)
        #expect(exif.starts(with: Array("II*\0".utf8)) || exif.starts(with: Array("MM\0*".utf8)))
        #expect(Self.orientation(of: exif) == .right)
        #expect(exif.range(of: Data("WebImageTests".utf8)) != nil)
        #expect(full.memoryCost == full.bitmap.byteCount + profile.count + exif.count + full.metadata.xmp!.count)
    }

    @Test func aJPEGProfileSplitOverThreeSegmentsIsReassembledInOrder() throws {
        let data = try Fixtures.data("metadata/large_icc.jpg")
        #expect(Self.segmentMarkers(of: data).filter { $0 == 0xE2 }.count == 3)
        #expect(try Self.decode(data).metadata.iccProfile == (try Self.largeProfile()))
    }

    @Test func nothingIsReadWhenNoKindIsAsked() throws {
        for (_, ext) in Self.formats {
            #expect(try Self.decode(Fixtures.data("metadata/photo.\(ext)"), reading: []).metadata.isEmpty)
        }
    }

    // MARK: Writing

    @Test(arguments: formats)
    func encodingKeepsOnlyTheICCProfileByDefault(format: ImageFormat, ext: String) throws {
        let image = try Self.decode(Fixtures.data("metadata/photo.\(ext)"), reading: .all)
        let data = try ImageCodersManager.shared.encode(image, as: format, options: ImageEncodeOptions())
        let again = try Self.decode(data, reading: .all)
        #expect(again.metadata == ImageMetadata(iccProfile: try Fixtures.data("metadata/srgb.icc")))
        #expect(data.range(of: Data("WebImageTests".utf8)) == nil)
    }

    @Test(arguments: formats)
    func keptEXIFSaysUprightBecauseThePixelsWereTurned(format: ImageFormat, ext: String) throws {
        let image = try Self.decode(Fixtures.data("metadata/photo.\(ext)"), reading: .all)
        #expect(image.orientation == .up)
        // JPEG and PNG turn the 48x32 pixels; WebP shows them as stored, as SDWebImage does.
        let shown = format == .webp ? PixelSize(width: 48, height: 32) : PixelSize(width: 32, height: 48)
        #expect(image.bitmap.size == shown)
        let data = try Self.encode(image, as: format, keeping: .all)
        let again = try Self.decode(data, reading: .all)
        #expect(Self.orientation(of: again.metadata.exif) == .up)
        #expect(again.metadata.exif?.range(of: Data("WebImageTests".utf8)) != nil)
        #expect(again.metadata.iccProfile == image.metadata.iccProfile)
        #expect(again.metadata.xmp == image.metadata.xmp)
        // Not turned a second time.
        #expect(again.bitmap.size == shown)
    }

    @Test(arguments: formats)
    func strippingEverythingWritesNoMetadataBytes(format: ImageFormat, ext: String) throws {
        let image = try Self.decode(Fixtures.data("metadata/photo.\(ext)"), reading: .all)
        let data = try Self.encode(image, as: format, keeping: [])
        #expect(try Self.decode(data, reading: .all).metadata.isEmpty)
        let stripped = try Self.encode(Image(bitmap: image.bitmap, hasAlpha: false), as: format, keeping: [])
        #expect(data == stripped)
    }

    @Test func jpegOutputCarriesEachBlockInItsOwnSegmentAfterJFIF() throws {
        let image = try Self.decode(Fixtures.data("metadata/photo.jpg"), reading: .all)
        let data = try Self.encode(image, as: .jpeg, keeping: .all)
        #expect(Array(Self.segmentMarkers(of: data).prefix(4)) == [0xE0, 0xE1, 0xE1, 0xE2])
    }

    @Test func pngOutputCarriesTheBlocksRightAfterIHDR() throws {
        let image = try Self.decode(Fixtures.data("metadata/photo.png"), reading: .all)
        let data = try Self.encode(image, as: .png, keeping: .all)
        #expect(Array(EncodeOptionsTests.chunks(of: data).prefix(4)) == ["IHDR", "iCCP", "eXIf", "iTXt"])
        // Every chunk CRC is right: libpng (which checks them) decodes the file.
        #expect(try Self.decode(data).width == 32)
    }

    @Test func aLargeProfileIsSplitOverAPP2SegmentsAndReadBack() throws {
        var image = Image(bitmap: ImageBitmap(width: 8, height: 8, fill: .white), hasAlpha: false)
        image.metadata.iccProfile = try Self.largeProfile()
        let data = try Self.encode(image, as: .jpeg, keeping: .all)
        #expect(Self.segmentMarkers(of: data).filter { $0 == 0xE2 }.count == 3)
        #expect(try Self.decode(data).metadata.iccProfile == (try Self.largeProfile()))
        // PNG and WebP hold it in one chunk.
        for format in [ImageFormat.png, .webp] {
            let other = try Self.encode(image, as: format, keeping: .all)
            #expect(try Self.decode(other).metadata.iccProfile == (try Self.largeProfile()))
        }
    }

    @Test func anEXIFBlockTooLargeForAJPEGSegmentIsLeftOutAndTheRestKept() throws {
        // In colour: a gray image would be written without its sRGB profile (writesGrayscale).
        let orange = RGBA8(r: 230, g: 120, b: 20, a: 255)
        var image = Image(bitmap: ImageBitmap(width: 8, height: 8, fill: orange), hasAlpha: false)
        image.metadata = ImageMetadata(
            exif: Data("II*\0".utf8) + Data(count: 70_000), iccProfile: try Fixtures.data("metadata/srgb.icc"))
        let data = try Self.encode(image, as: .jpeg, keeping: .all)
        let again = try Self.decode(data, reading: .all)
        #expect(again.metadata.exif == nil)
        #expect(again.metadata.iccProfile == image.metadata.iccProfile)
    }

    @Test(arguments: [ImageFormat.jpeg, .webp])
    func maxFileSizeCountsTheMetadataBytes(format: ImageFormat) throws {
        var image = EncodeOptionsTests.photo(width: 256, height: 192)
        image.metadata.iccProfile = try Self.largeProfile()
        let unlimited = try Self.encode(image, as: format, keeping: .all)
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.9
        options.maxFileSize = unlimited.count - 2_000
        let fitted = try ImageCodersManager.shared.encode(image, as: format, options: options)
        #expect(fitted.count <= options.maxFileSize!)
        #expect(fitted.count > 150_000)
        #expect(try Self.decode(fitted).metadata.iccProfile == (try Self.largeProfile()))
    }

    @Test func animatedWebPKeepsItsMetadataAndFrames() throws {
        let animated = try ImageCodersManager.shared.decode(
            Fixtures.data("webp/animated.webp"), options: ImageDecodeOptions())
        var image = animated
        image.metadata = ImageMetadata(
            iccProfile: try Fixtures.data("metadata/srgb.icc"), xmp: try Fixtures.data("metadata/metadata.xmp"))
        let data = try Self.encode(image, as: .webp, keeping: .all)
        let again = try Self.decode(data, reading: .all)
        #expect(again.frameCount == animated.frameCount)
        #expect(again.animation?.loopCount == animated.animation?.loopCount)
        #expect(again.metadata == image.metadata)
    }

    // MARK: EXIF orientation rewrite

    @Test func theOrientationTagIsRewrittenInEitherByteOrderAndWidth() {
        // IFD0 with one entry: tag 0x0112, type SHORT (3) or LONG (4), count 1, value 8.
        func tiff(bigEndian: Bool, type: UInt8) -> Data {
            let header: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8] : [0x49, 0x49, 42, 0, 8, 0, 0, 0]
            let count: [UInt8] = bigEndian ? [0, 1] : [1, 0]
            let tag: [UInt8] = bigEndian ? [0x01, 0x12] : [0x12, 0x01]
            let typeBytes: [UInt8] = bigEndian ? [0, type] : [type, 0]
            let one: [UInt8] = bigEndian ? [0, 0, 0, 1] : [1, 0, 0, 0]
            let value: [UInt8] =
                type == 3
                ? (bigEndian ? [0, 8, 0, 0] : [8, 0, 0, 0])
                : (bigEndian ? [0, 0, 0, 8] : [8, 0, 0, 0])
            return Data(header + count + tag + typeBytes + one + value + [0, 0, 0, 0])
        }
        for bigEndian in [false, true] {
            for type: UInt8 in [3, 4] {
                let block = tiff(bigEndian: bigEndian, type: type)
                #expect(EXIFOrientation.read(fromExifBlock: Array(block)) == .left)
                let upright = EXIFOrientation.settingUpright(inTIFF: block)
                #expect(EXIFOrientation.read(fromExifBlock: Array(upright)) == .up)
                #expect(upright.count == block.count)
            }
        }
        let noTIFF = Data("not tiff at all".utf8)
        #expect(EXIFOrientation.settingUpright(inTIFF: noTIFF) == noTIFF)
    }

    // MARK: Transforms and memory

    @Test func transformersCarryTheMetadataOver() throws {
        let image = try Self.decode(Fixtures.data("metadata/photo.jpg"), reading: .all)
        let resized = try ImageResizingTransformer(size: PixelSize(width: 16, height: 24), scaleMode: .fill)
            .transformedImage(image, forKey: "k")
        #expect(resized.metadata == image.metadata)
        #expect(!resized.metadata.isEmpty)
    }
}
