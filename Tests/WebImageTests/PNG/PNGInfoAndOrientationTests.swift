import Foundation
import Testing

@_spi(Internals) @testable import WebImage

@Suite("PNG header info and EXIF orientation")
struct PNGInfoAndOrientationTests {
    @Test("imageInfo reads size, alpha and one frame without decoding")
    func info() throws {
        let info = try PNGCoder().imageInfo(for: PNGFixture.data("palette4_trns"))
        #expect(info == ImageInfo(format: .png, width: 11, height: 7, frameCount: 1, loopCount: 1, hasAlpha: true))
        // The pixel limit does not apply to a header read.
        let huge = try PNGCoder().imageInfo(for: PNGFixture.invalid("huge_ihdr"))
        #expect(huge.width == 100_000 && huge.height == 100_000)
    }

    @Test("an eXIf chunk before IDAT (big-endian) sets the orientation; info gives the shown size")
    func exifBeforeIDAT() throws {
        let info = try PNGCoder().imageInfo(for: PNGFixture.data("exif_right"))
        #expect(info.orientation == .right)
        #expect(info.width == 2 && info.height == 3)
    }

    @Test("an eXIf chunk after IDAT (little-endian) is found too")
    func exifAfterIDAT() throws {
        let data = try PNGFixture.data("exif_left_after_idat")
        #expect(try PNGCoder().imageInfo(for: data).orientation == .left)
        let stored = try PNGFixture.decodeStored(data)
        #expect(stored.orientation == .left)
        #expect(stored.bitmap.size == PixelSize(width: 3, height: 2))
    }

    @Test("decoding applies the orientation by default: stored 3x2 shown as 2x3, turned clockwise")
    func appliesOrientation() throws {
        let image = try PNGCoder().decode(PNGFixture.data("exif_right"), options: ImageDecodeOptions())
        #expect(image.orientation == .up)
        #expect(image.bitmap.size == PixelSize(width: 2, height: 3))
        // Stored rows: red green blue / yellow cyan magenta.
        let expected: [[RGBA8]] = [
            [RGBA8(r: 255, g: 255, b: 0), RGBA8(r: 255, g: 0, b: 0)],
            [RGBA8(r: 0, g: 255, b: 255), RGBA8(r: 0, g: 255, b: 0)],
            [RGBA8(r: 255, g: 0, b: 255), RGBA8(r: 0, g: 0, b: 255)],
        ]
        for y in 0..<3 {
            for x in 0..<2 {
                #expect(image.bitmap[x, y] == expected[y][x], "(\(x), \(y))")
            }
        }
    }

    @Test("without applyOrientation the pixels stay as stored and the orientation is kept")
    func keepsOrientation() throws {
        let image = try PNGFixture.decodeStored(PNGFixture.data("exif_right"))
        #expect(image.orientation == .right)
        #expect(image.bitmap[0, 0] == RGBA8(r: 255, g: 0, b: 0))
        #expect(image.orientedSize == PixelSize(width: 2, height: 3))
    }

    @Test("EXIF parsing: a bad byte order, a short IFD give no orientation; an out-of-range value reads as up")
    func exifParsingIsDefensive() {
        #expect(EXIFOrientation.read(fromExifBlock: []) == nil)
        #expect(EXIFOrientation.read(fromExifBlock: Array("XX\0*\0\0\0\u{8}".utf8)) == nil)
        // IFD offset past the end.
        #expect(EXIFOrientation.read(fromExifBlock: [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xF0]) == nil)
        // One entry declared, none present.
        #expect(EXIFOrientation.read(fromExifBlock: [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1]) == nil)
        // Orientation 9 is not an EXIF orientation: read as upright, as decoders do.
        let nine: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 9, 0, 0]
        #expect(EXIFOrientation.read(fromExifBlock: nine) == .up)
        // The same entry with value 3, behind a stray "Exif\0\0" prefix.
        let three = Array("Exif".utf8) + [0, 0] + nine.prefix(19) + [3, 0, 0]
        #expect(EXIFOrientation.read(fromExifBlock: three) == .down)
    }

    @Test("the IHDR peek's CRC-32 matches PNG's (IEND's CRC is AE426082)")
    func crc32() {
        let iend: [UInt8] = Array("IEND".utf8)
        #expect(iend.withUnsafeBytes { PNGChunkScan.crc32($0) } == 0xAE42_6082)
    }
}
