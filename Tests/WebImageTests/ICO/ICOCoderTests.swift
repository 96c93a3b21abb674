import Foundation
import Testing

@testable import WebImage

/// ICO: PNG and bitmap entries against Pillow's decodes, AND masks, which entry is read, and
/// the encoder read back.
@Suite("ICO")
struct ICOCoderTests {
    typealias Support = ICOTestSupport

    /// Lossless entries: Pillow's pixels exactly.
    @Test(arguments: [
        ("png_multi", 64, 64), ("bmp32", 20, 20), ("bmp24", 13, 9), ("bmp8", 16, 16), ("bmp4", 21, 11),
        ("bmp1", 37, 9), ("mixed", 48, 48),
    ])
    func everyKindMatchesPillow(name: String, width: Int, height: Int) throws {
        let data = try Support.data(name)
        #expect(ICOCoder().canDecode(data) && ImageFormat(detecting: data) == .ico)
        let image = try Support.decode(data)
        #expect(image.format == .ico && image.bitmap.size == PixelSize(width: width, height: height))
        let reference = try Support.reference(name, image.bitmap.size)
        #expect(PixelMetrics.maxChannelDifference(image.bitmap, reference) == 0, "\(name)")
        #expect(image.hasAlpha)
        let info = try ICOCoder().imageInfo(for: data)
        #expect(info == ImageInfo(format: .ico, width: width, height: height, hasAlpha: true))
    }

    /// The bitmap fixtures' masks hide their first column and about a third of the rest.
    @Test(arguments: ["bmp24", "bmp8", "bmp4", "bmp1"])
    func theANDMaskMakesPixelsTransparent(name: String) throws {
        let bitmap = try Support.decode(try Support.data(name)).bitmap
        let alphas = (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { x in bitmap[x, y].a } }
        #expect(Set(alphas) == [0, 255])
        #expect((0..<bitmap.height).allSatisfy { bitmap[0, $0].a == 0 })
        let hidden = alphas.filter { $0 == 0 }.count
        #expect(hidden > bitmap.height && hidden < alphas.count / 2)
    }

    /// `mixed.ico` lists a 16×16 bitmap, a 48×48 PNG and a 32×32 bitmap.
    @Test(arguments: [
        (PixelSize.zero, 48, "mixed"), (PixelSize(width: 100, height: 100), 48, "mixed"),
        (PixelSize(width: 40, height: 40), 48, "mixed"), (PixelSize(width: 32, height: 32), 32, "mixed_32"),
        (PixelSize(width: 20, height: 20), 32, "mixed_32"), (PixelSize(width: 16, height: 16), 16, "mixed_16"),
        (PixelSize(width: 8, height: 8), 16, "mixed_16"),
    ])
    func theLargestEntryOrTheNearestToTheThumbnailIsRead(thumbnail: PixelSize, entry: Int, reference: String) throws {
        let image = try Support.decode(try Support.data("mixed")) { $0.thumbnailPixelSize = thumbnail }
        let width = thumbnail.isPositive ? min(entry, thumbnail.width) : entry
        #expect(image.bitmap.size == PixelSize(width: width, height: width), "thumbnail \(thumbnail)")
        #expect(image.isThumbnail == (image.bitmap.width < entry))
        if image.bitmap.width == entry {
            let pixels = try Support.reference(reference, PixelSize(width: entry, height: entry))
            #expect(image.bitmap == pixels, "thumbnail \(thumbnail)")
        }
    }

    @Test func ofEqualSizesTheDeeperEntryIsRead() throws {
        let red = Support.bitmap32(width: 4, height: 4) { _, _ in RGBA8(r: 255, g: 0, b: 0) }
        var onebit = Support.le32(40) + Support.le32(4) + Support.le32(8) + Support.le16(1) + Support.le16(1)
        onebit += [UInt8](repeating: 0, count: 24) + [0, 0, 0, 0, 255, 255, 255, 0]  // black, white
        onebit += [UInt8](repeating: 0, count: 16) + [UInt8](repeating: 0, count: 16)  // pixels, mask
        for payloads in [[onebit, red], [red, onebit]] {
            let image = try Support.decode(Support.file(payloads: payloads))
            #expect(image.bitmap[1, 1] == RGBA8(r: 255, g: 0, b: 0))
        }
    }

    /// Icons from before alpha: 32-bit pixels whose fourth bytes are all 0 take the mask's
    /// transparency, as browsers show them.
    @Test func a32BitEntryWithoutAlphaUsesItsMask() throws {
        let payload = Support.bitmap32(
            width: 3, height: 2, pixel: { x, _ in RGBA8(r: UInt8(x * 100), g: 50, b: 7, a: 0) },
            hidden: { x, y in x == 1 && y == 0 })
        let bitmap = try Support.decode(Support.file(payloads: [payload])).bitmap
        #expect(bitmap[0, 0] == RGBA8(r: 0, g: 50, b: 7, a: 255))
        #expect(bitmap[1, 0] == RGBA8(r: 100, g: 50, b: 7, a: 0))
        #expect(bitmap[2, 1] == RGBA8(r: 200, g: 50, b: 7, a: 255))
    }

    /// A bitmap without room for its mask (some writers leave it out) is opaque.
    @Test func aBitmapWithoutItsMaskIsOpaque() throws {
        var payload = Support.bitmap32(width: 3, height: 2) { _, _ in RGBA8(r: 9, g: 8, b: 7, a: 0) }
        payload.removeLast(8)
        let image = try Support.decode(Support.file(payloads: [payload]))
        #expect(!image.hasAlpha && image.bitmap[2, 1] == RGBA8(r: 9, g: 8, b: 7, a: 255))
    }

    @Test func encodingWritesOnePNGEntryThatRoundTripsBitExact() throws {
        let bitmap = ImageBitmap.noise(width: 40, height: 24, alpha: .columns)
        let data = try Support.encode(Image(bitmap: bitmap, format: .png, hasAlpha: true))
        #expect(Array(data.prefix(6)) == [0, 0, 1, 0, 1, 0])
        #expect(Array(data[6..<8]) == [40, 24])
        #expect(Array(data[18..<22]) == [22, 0, 0, 0])
        #expect(ImageFormat(detecting: Data(data[22...])) == .png)
        let decoded = try Support.decode(data)
        #expect(decoded.format == .ico && decoded.bitmap == bitmap)
    }

    /// Larger images are scaled down to fit 256×256, as imgproxy does; 256 is written as 0.
    @Test func largerImagesAreScaledDownTo256() throws {
        let source = Image(bitmap: ImageBitmap(width: 600, height: 300, fill: .white), format: .png, hasAlpha: false)
        let data = try Support.encode(source)
        #expect(Array(data[6..<8]) == [0, 128])
        #expect(try Support.decode(data).bitmap.size == PixelSize(width: 256, height: 128))
        let smaller = try Support.encode(source) { $0.maxPixelSize = PixelSize(width: 100, height: 100) }
        #expect(try ICOCoder().imageInfo(for: smaller).width == 100)
    }
}
