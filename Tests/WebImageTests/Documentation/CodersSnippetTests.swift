import Foundation
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone

// The code of Sources/WebImage/WebImage.docc/CodersAndFormats.md, kept compiling and working.
// Article and test are kept in sync by hand: change one, change the other. The test registers
// the coder with a registry of its own instead of the shared one, so other tests are unaffected.
@Suite("DocC snippets: Coders and formats")
struct CodersSnippetTests {
    @Test("A thumbnail decode, then WebP")
    func decodeSnippet() throws {
        let data = try Fixtures.data("jpeg/photo_800x600.jpg")

        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 400, height: 400)  // JPEG: reduced in the DCT, then resampled
        let image = try ImageCodersManager.shared.decode(data, options: options)
        print(image.width, image.height, image.format, image.isThumbnail)  // upright: EXIF orientation applied

        var encode = ImageEncodeOptions()
        encode.compressionQuality = 0.8
        let webp = try ImageCodersManager.shared.encode(image, as: .webp, options: encode)

        #expect(image.width == 400 && image.height == 300 && image.isThumbnail)
        #expect(ImageFormat(detecting: webp) == .webp)
    }

    @Test("A coder of one's own round-trips pixels and rejects truncated and oversized data")
    func customCoderSnippet() throws {
        let coders = ImageCodersManager()
        coders.addCoder(RawRGBACoder())
        let source = Image(bitmap: ImageBitmap(width: 3, height: 2, fill: RGBA8(r: 10, g: 20, b: 30, a: 40)))

        let data = try coders.encode(source, as: .raw, options: ImageEncodeOptions())
        #expect(data.count == 8 + 3 * 2 * 4)
        let decoded = try coders.decode(data, options: ImageDecodeOptions())
        #expect(decoded.bitmap == source.bitmap && decoded.format == .raw)
        #expect(try coders.imageInfo(for: data).width == 3)

        #expect(throws: WebImageError.self) { try coders.decode(data.prefix(12), options: ImageDecodeOptions()) }
        var limited = ImageDecodeOptions()
        limited.maxPixelCount = 5
        #expect(throws: WebImageError.imageTooLarge(width: 3, height: 2, limit: 5)) {
            try coders.decode(data, options: limited)
        }
    }
}

private struct RawRGBACoder: ImageCoding {
    static let magic = Data("WIRA".utf8)

    func canDecode(_ data: Data) -> Bool { data.starts(with: Self.magic) }

    func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        let (width, height) = try header(of: data)
        return ImageInfo(format: .raw, width: width, height: height, hasAlpha: true)
    }

    func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let (width, height) = try header(of: data)
        try options.checkPixelLimit(width: width, height: height)
        guard data.count == 8 + width * height * 4 else { throw WebImageError.badImageData("truncated WIRA data") }
        let bitmap = try ImageBitmap(width: width, height: height, pixels: Array(data.dropFirst(8)))
        return Image(bitmap: bitmap, format: .raw)
    }

    func canEncode(to format: ImageFormat) -> Bool { format == .raw }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data {
        guard image.width <= 0xFFFF, image.height <= 0xFFFF else {
            throw WebImageError.invalidArgument("WIRA holds at most 65535×65535 pixels")
        }
        var data = Self.magic
        for value in [image.width, image.height] { data.append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)]) }
        data.append(contentsOf: image.bitmap.pixels)
        return data
    }

    private func header(of data: Data) throws(WebImageError) -> (width: Int, height: Int) {
        guard data.count >= 8, canDecode(data) else { throw WebImageError.badImageData("not WIRA data") }
        let bytes = [UInt8](data.prefix(8))
        return (Int(bytes[4]) << 8 | Int(bytes[5]), Int(bytes[6]) << 8 | Int(bytes[7]))
    }
}
