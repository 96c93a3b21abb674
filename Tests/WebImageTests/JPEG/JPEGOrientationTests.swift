import Foundation
import Testing

@testable import WebImage

@Suite("JPEG EXIF orientation")
struct JPEGOrientationTests {
    @Test(arguments: 1...8)
    func appliedByDefaultGivesTheUprightLayout(orientation: Int) throws {
        let image = try JPEGFixture.decode("orientation_\(orientation).jpg")
        #expect(image.width == 64 && image.height == 32)
        #expect(image.orientation == .up)
        #expect(areClose(image.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 8))
    }

    @Test(arguments: 1...8)
    func keptWhenNotAppliedWithStoredPixels(orientation: Int) throws {
        let image = try JPEGFixture.decode("orientation_\(orientation).jpg") { $0.applyOrientation = false }
        let expected = try #require(ImageOrientation(rawValue: orientation))
        #expect(image.orientation == expected)
        let stored = expected.swapsDimensions ? PixelSize(width: 32, height: 64) : PixelSize(width: 64, height: 32)
        #expect(image.bitmap.size == stored)
        #expect(image.orientedSize == PixelSize(width: 64, height: 32))
        let upright = image.bitmap.applyingOrientation(image.orientation)
        #expect(areClose(upright.quadrantColours, JPEGFixture.quadrants, tolerance: 8))
        if orientation != 1 {
            #expect(!areClose(image.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 8))
        }
    }

    @Test(arguments: 1...8)
    func imageInfoReportsUprightSizeAndOrientation(orientation: Int) throws {
        let info = try JPEGCoder().imageInfo(for: try JPEGFixture.data("orientation_\(orientation).jpg"))
        #expect(info.width == 64 && info.height == 32)
        #expect(info.orientation.rawValue == orientation)
    }
}

@Suite("EXIF orientation parser")
struct EXIFOrientationParserTests {
    /// An APP1 payload: "Exif\0\0" + TIFF header + IFD0 with one orientation entry.
    static func app1(littleEndian: Bool, type: UInt16 = 3, value: UInt16 = 6, entries: UInt16 = 1) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            let bytes = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            return littleEndian ? bytes.reversed() : bytes
        }
        var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        tiff += u16(42) + u32(8) + u16(entries)
        tiff += u16(0x0112) + u16(type) + u32(1) + u16(value) + [0, 0]
        tiff += u32(0)
        return Array("Exif".utf8) + [0, 0] + tiff
    }

    static func read(_ payload: [UInt8]) -> ImageOrientation? {
        payload.withUnsafeBytes { EXIFOrientation.read(fromApp1: $0) }
    }

    @Test func readsBothByteOrders() {
        #expect(Self.read(Self.app1(littleEndian: true, value: 6)) == .right)
        #expect(Self.read(Self.app1(littleEndian: false, value: 8)) == .left)
    }

    @Test func outOfRangeValuesMeanUp() {
        #expect(Self.read(Self.app1(littleEndian: true, value: 9)) == .up)
        #expect(Self.read(Self.app1(littleEndian: true, value: 0)) == .up)
        #expect(Self.read(Self.app1(littleEndian: true, type: 7)) == .up)
    }

    @Test func truncatedOrLyingPayloadsAreIgnored() {
        let good = Self.app1(littleEndian: true)
        for length in 0..<good.count - 6 {
            // Every prefix that cuts the entry short must come back nil, never read past the end.
            #expect(Self.read(Array(good.prefix(length))) == nil)
        }
        // 65535 entries claimed, one present.
        #expect(Self.read(Self.app1(littleEndian: true, entries: 0xFFFF)) == .right)
        var farIFD = good
        farIFD[10...13] = [0xFF, 0xFF, 0xFF, 0xFF]  // IFD offset 4 GiB
        #expect(Self.read(farIFD) == nil)
        var badOrder = good
        badOrder[6] = 0x41
        #expect(Self.read(badOrder) == nil)
        #expect(Self.read(Array("JFIF".utf8) + [0] + good) == nil)
    }

    @Test func theMarkerWalkStopsAtBadLengths() {
        // SOI, then an APP1 whose length runs past the end.
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xF0, 0x45, 0x78]
        let layout = bytes.withUnsafeBytes { JPEGMarkers.layout(of: $0, throughScans: true) }
        #expect(layout == JPEGMarkerLayout())
    }
}
