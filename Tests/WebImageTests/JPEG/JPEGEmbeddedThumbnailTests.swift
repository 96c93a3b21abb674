import Foundation
import Testing

@testable import WebImage

/// ``ImageDecodeOptions/decodeEmbeddedThumbnail``: a red photo carries a blue EXIF thumbnail, so
/// the colour of the result says which one was decoded.
@Suite("JPEG: embedded EXIF thumbnails")
struct JPEGEmbeddedThumbnailTests {
    static let red = RGBA8(r: 230, g: 20, b: 20)
    static let blue = RGBA8(r: 20, g: 20, b: 230)

    static func jpeg(width: Int, height: Int, fill: RGBA8) throws -> Data {
        let image = Image(bitmap: ImageBitmap(width: width, height: height, fill: fill))
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.9
        return try JPEGCoder().encode(image, as: .jpeg, options: options)
    }

    /// A 640×480 red JPEG whose APP1 segment holds `orientation` and, in IFD1, `thumbnail` at
    /// `offsetShift` bytes past where it really starts (0: correct).
    static func photo(
        thumbnail: Data, orientation: Int = 1, offsetShift: Int = 0, mainWidth: Int = 640, mainHeight: Int = 480
    ) throws -> Data {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value >> 16 & 0xFFFF) + u16(value & 0xFFFF) }
        // Big-endian TIFF: IFD0 at 8 (orientation), IFD1 at 26 (the thumbnail's place), data at 56.
        var tiff: [UInt8] = Array("MM".utf8) + u16(42) + u32(8)
        tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(26)
        tiff += u16(2)
        tiff += u16(0x0201) + u16(4) + u32(1) + u32(56 + offsetShift)
        tiff += u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count)
        tiff += u32(0)
        tiff += thumbnail
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1] + u16(payload.count + 2) + payload
        let main = try jpeg(width: mainWidth, height: mainHeight, fill: red)
        return main.prefix(2) + Data(segment) + main.dropFirst(2)
    }

    static func decode(_ data: Data, thumbnail: PixelSize, embedded: Bool = true) throws -> Image {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = thumbnail
        options.decodeEmbeddedThumbnail = embedded
        return try JPEGCoder().decode(data, options: options)
    }

    @Test func aThumbnailNoLargerThanTheEmbeddedOneIsMadeFromIt() throws {
        let data = try Self.photo(thumbnail: try Self.jpeg(width: 160, height: 120, fill: Self.blue))
        let image = try Self.decode(data, thumbnail: PixelSize(width: 100, height: 100))
        #expect(image.width == 100 && image.height == 75)
        #expect(isClose(image.bitmap[50, 37], Self.blue, tolerance: 16))
        #expect(image.isThumbnail)
        #expect(image.format == .jpeg)
    }

    @Test func withoutTheOptionTheImageItselfIsDecoded() throws {
        let data = try Self.photo(thumbnail: try Self.jpeg(width: 160, height: 120, fill: Self.blue))
        let image = try Self.decode(data, thumbnail: PixelSize(width: 100, height: 100), embedded: false)
        #expect(image.width == 100 && image.height == 75)
        #expect(isClose(image.bitmap[50, 37], Self.red, tolerance: 16))
        // Nor without a thumbnail size: the full image, whatever the option says.
        let full = try Self.decode(data, thumbnail: .zero)
        #expect(full.width == 640 && isClose(full.bitmap[320, 240], Self.red, tolerance: 16))
    }

    @Test func aThumbnailLargerThanTheEmbeddedOneComesFromTheImage() throws {
        let data = try Self.photo(thumbnail: try Self.jpeg(width: 160, height: 120, fill: Self.blue))
        let image = try Self.decode(data, thumbnail: PixelSize(width: 200, height: 200))
        #expect(image.width == 200 && image.height == 150)
        #expect(isClose(image.bitmap[100, 75], Self.red, tolerance: 16))
    }

    @Test func anEmbeddedThumbnailOfAnotherAspectRatioIsNotUsed() throws {
        // Letterboxed thumbnails (4:3 for a 16:9 photo) would come out stretched.
        let data = try Self.photo(
            thumbnail: try Self.jpeg(width: 160, height: 120, fill: Self.blue), mainWidth: 640, mainHeight: 360)
        let image = try Self.decode(data, thumbnail: PixelSize(width: 100, height: 100))
        #expect(image.width == 100 && (56...57).contains(image.height))
        #expect(isClose(image.bitmap[50, 28], Self.red, tolerance: 16))
    }

    @Test func theImagesOrientationTurnsItsEmbeddedThumbnail() throws {
        // Orientation 6: shown turned 90° clockwise, so 480×640 as shown; the thumbnail is
        // stored as the image is.
        var thumbnailPixels = ImageBitmap(width: 160, height: 120, fill: Self.blue)
        for y in 0..<120 {
            for x in 0..<80 { thumbnailPixels[x, y] = .white }
        }
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.9
        let thumbnail = try JPEGCoder().encode(Image(bitmap: thumbnailPixels), as: .jpeg, options: options)
        let image = try Self.decode(
            try Self.photo(thumbnail: thumbnail, orientation: 6), thumbnail: PixelSize(width: 100, height: 100))
        #expect(image.width == 75 && image.height == 100)
        #expect(image.orientation == .up)
        // The stored left half (white) is the top half once turned clockwise.
        #expect(isClose(image.bitmap[37, 20], .white, tolerance: 16))
        #expect(isClose(image.bitmap[37, 80], Self.blue, tolerance: 16))
    }

    @Test func aBrokenEmbeddedThumbnailFallsBackToTheImage() throws {
        let thumbnail = try Self.jpeg(width: 160, height: 120, fill: Self.blue)
        // Its place points past the start of the JPEG: no SOI there.
        let shifted = try Self.photo(thumbnail: thumbnail, offsetShift: 3)
        #expect(isClose(try Self.decode(shifted, thumbnail: PixelSize(width: 80, height: 80)).bitmap[40, 30], Self.red))
        // Its place runs past the segment.
        let outside = try Self.photo(thumbnail: thumbnail, offsetShift: 1 << 20)
        #expect(isClose(try Self.decode(outside, thumbnail: PixelSize(width: 80, height: 80)).bitmap[40, 30], Self.red))
        // A truncated embedded JPEG: the header reads, the data does not.
        let truncated = try Self.photo(thumbnail: thumbnail.prefix(thumbnail.count / 2))
        let image = try Self.decode(truncated, thumbnail: PixelSize(width: 80, height: 80))
        #expect(image.width == 80 && isClose(image.bitmap[40, 30], Self.red, tolerance: 16))
    }

    @Test(
        "The fuzz seeds' thumbnails are found in either byte order",
        arguments: [
            ("exif-thumbnail-mm.jpg", RGBA8(r: 30, g: 30, b: 200), PixelSize(width: 16, height: 12)),
            ("exif-thumbnail-ii-rotated.jpg", RGBA8(r: 200, g: 200, b: 30), PixelSize(width: 16, height: 12)),
        ])
    func fuzzSeeds(name: String, thumbnailColour: RGBA8, size: PixelSize) throws {
        let url = FuzzRegressionTests.packageRoot.appendingPathComponent("Fuzz/corpus/jpeg/\(name)")
        let image = try Self.decode(try Data(contentsOf: url), thumbnail: PixelSize(width: 16, height: 16))
        #expect(image.bitmap.size == size)
        #expect(isClose(image.bitmap[8, 6], thumbnailColour, tolerance: 16))
    }

    @Test func theContextKeyTurnsTheOptionOn() {
        var context = WebImageContext()
        #expect(!ImageDecodeOptions(context: context, options: [], cacheKey: nil).decodeEmbeddedThumbnail)
        context.imageEmbedThumbnail = true
        #expect(ImageDecodeOptions(context: context, options: [], cacheKey: nil).decodeEmbeddedThumbnail)
    }
}
