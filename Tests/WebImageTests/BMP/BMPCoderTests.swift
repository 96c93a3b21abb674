import Foundation
import Testing

@testable import WebImage

/// BMP in Swift: every kind of the fixtures against Pillow's decodes, RLE jumps, the encoder
/// read back by us and by construction, and lying headers.
@Suite("BMP")
struct BMPCoderTests: CoderFixtures {
    static let folder = "bmp"
    static let fileExtension = "bmp"
    static let format = ImageFormat.bmp
    static var coder: any ImageCoding { ImageCodersManager.shared }

    @Test(arguments: [
        "rgb24", "rgb24_odd", "rgbx32", "argb32_v4", "gray8", "pal8", "mono1", "pal4", "rgb565", "rgb555", "topdown",
        "rle8", "rle4", "core8",
    ])
    func everyKindMatchesPillow(name: String) throws {
        let data = try Self.data(name)
        #expect(BMPCoder().canDecode(data))
        let image = try Self.decode(data)
        #expect(image.format == .bmp)
        let reference = try Self.reference(name, image.bitmap.size)
        // 5- and 6-bit channels are scaled to 8 bits: rounding may differ by one from Pillow's.
        let tolerance = name.hasPrefix("rgb5") ? 1 : 0
        #expect(PixelMetrics.maxChannelDifference(image.bitmap, reference) <= tolerance, "\(name)")
        #expect(image.hasAlpha == (name == "argb32_v4"), "\(name)")
    }

    /// A 4x3 RLE8 file: a run of 2 green, a jump of (1, 1), a run of 1 red, end of bitmap.
    /// Pixels the runs skip are transparent.
    @Test func rleJumpsLeaveTransparentPixels() throws {
        let palette: [UInt8] = [0, 0, 255, 0, 0, 255, 0, 0]  // index 0 red, 1 green
        let runs: [UInt8] = [2, 1, 0, 2, 1, 1, 1, 0, 0, 1]
        var info = [UInt8](repeating: 0, count: 40)
        for (offset, value) in [(0, 40), (4, 4), (8, 3), (12, 1), (14, 8), (16, 1), (32, 2)] as [(Int, Int)] {
            info[offset] = UInt8(value)
        }
        let offset = 14 + 40 + palette.count
        let header: [UInt8] = [0x42, 0x4D, UInt8(offset + runs.count), 0, 0, 0, 0, 0, 0, 0, UInt8(offset), 0, 0, 0]
        let image = try Self.decode(Data(header + info + palette + runs))
        #expect(image.hasAlpha)
        // Bottom row (y = 2): two green, then nothing.
        #expect(image.bitmap[0, 2] == RGBA8(r: 0, g: 255, b: 0) && image.bitmap[1, 2] == RGBA8(r: 0, g: 255, b: 0))
        #expect(image.bitmap[2, 2].a == 0)
        // After the jump to (3, 1): one red pixel at x = 3 of the middle row.
        #expect(image.bitmap[3, 1] == RGBA8(r: 255, g: 0, b: 0))
        #expect(image.bitmap[0, 1].a == 0 && image.bitmap[0, 0].a == 0)
    }

    @Test func theEncoderWritesWhatPillowAndWeReadBack() throws {
        var bitmap = ImageBitmap(width: 7, height: 3, fill: .clear)
        for y in 0..<3 {
            for x in 0..<7 { bitmap[x, y] = RGBA8(r: UInt8(x * 30), g: UInt8(y * 80), b: 200, a: 255) }
        }
        let opaque = try ImageCodersManager.shared.encode(
            Image(bitmap: bitmap, format: .png, hasAlpha: false), as: .bmp, options: ImageEncodeOptions())
        #expect(opaque.count == 14 + 40 + 3 * 24)  // 7 * 3 bytes padded to 24 a row
        #expect(try Self.decode(opaque).bitmap == bitmap)
        bitmap[3, 1] = RGBA8(r: 1, g: 2, b: 3, a: 0)
        bitmap[4, 1] = RGBA8(r: 9, g: 8, b: 7, a: 128)
        let withAlpha = try ImageCodersManager.shared.encode(
            Image(bitmap: bitmap, format: .png, hasAlpha: true), as: .bmp, options: ImageEncodeOptions())
        #expect(withAlpha.count == 14 + 108 + 3 * 7 * 4)
        let decoded = try Self.decode(withAlpha)
        #expect(decoded.hasAlpha && decoded.bitmap == bitmap)
    }

    @Test func lyingHeadersAreTypedErrorsBeforeAllocating() throws {
        var huge = [UInt8](try Self.data("rgb24"))
        huge.replaceSubrange(18..<26, with: [0x40, 0x9C, 0, 0, 0x40, 0x9C, 0, 0])  // 40000 x 40000
        #expect {
            _ = try Self.decode(Data(huge))
        } throws: { error in
            (error as? WebImageError)?.code == .imageTooLarge
        }
        var tooManyColours = [UInt8](try Self.data("pal4"))
        tooManyColours[46] = 17  // clrUsed 17 for 4-bit pixels
        #expect(throws: WebImageError.self) { _ = try Self.decode(Data(tooManyColours)) }
        var zeroWidth = [UInt8](try Self.data("rgb24"))
        zeroWidth.replaceSubrange(18..<22, with: [0, 0, 0, 0])
        #expect(throws: WebImageError.self) { _ = try Self.decode(Data(zeroWidth)) }
        let data = try Self.data("rle8")
        for length in [2, 20, 60, data.count - 3] {
            #expect(throws: WebImageError.self) { _ = try Self.decode(Data(data.prefix(length))) }
        }
        let rows = try Self.data("rgb24")
        #expect(throws: WebImageError.self) { _ = try Self.decode(Data(rows.prefix(rows.count - 1))) }
    }
}
