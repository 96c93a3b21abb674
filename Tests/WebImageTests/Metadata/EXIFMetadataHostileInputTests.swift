import Foundation
import Testing

@testable import WebImage

/// Lying and truncated EXIF blocks: the reader returns what was valid, without trapping and
/// without allocating more than the data justifies.
@Suite("Metadata: hostile EXIF blocks")
struct EXIFMetadataHostileInputTests {
    static func fields(_ data: Data) -> [String: MetadataValue] {
        ImageMetadata(exif: data).exifFields(canonicalNames: true)
    }

    /// `data` with four bytes at `offset` replaced by `value` (little-endian).
    static func patched(_ data: Data, at offset: Int, _ value: Int) -> Data {
        var copy = data
        copy.replaceSubrange(offset..<(offset + 4), with: le32(value))
        return copy
    }

    @Test("An Exif pointer to IFD0 itself, or GPS and Exif pointing at each other, ends the walk")
    func loops() {
        var block = EXIFBlock()
        block.ifd0 = [(0x0110, block.ascii("M"))]
        block.exif = [(0x9000, block.undefined(Array("0230".utf8)))]
        block.gps = [(0x0001, block.ascii("N"))]
        let data = block.data
        // IFD0: Model, Exif pointer, GPS pointer; each pointer's value field is at +8.
        let toSelf = Self.patched(data, at: EXIFBlock.entryOffset(1) + 8, 8)
        #expect(Self.fields(toSelf) == ["Model": .text("M"), "GPSLatitudeRef": .text("N")])
        let exifOffset = 8 + 2 + 12 * 3 + 4
        let gpsAtExif = Self.patched(data, at: EXIFBlock.entryOffset(2) + 8, exifOffset)
        #expect(Self.fields(gpsAtExif) == ["Model": .text("M"), "ExifVersion": .text("0230")])
        // IFD0's next-IFD field pointing back at IFD0 is not followed either.
        #expect(Self.fields(Self.patched(data, at: 8 + 2 + 12 * 3, 8)).count == 3)
    }

    @Test("Offsets past the end leave out that value or IFD and keep the rest")
    func offsetsOutOfRange() {
        var block = EXIFBlock()
        block.ifd0 = [(0x010F, block.ascii("A long make")), (0x0110, block.ascii("Model"))]
        block.exif = [(0x9000, block.undefined(Array("0230".utf8)))]
        let data = block.data
        let badValue = Self.patched(data, at: EXIFBlock.entryOffset(0) + 8, 0xFFFF_FFF0)
        #expect(Self.fields(badValue) == ["Model": .text("Model"), "ExifVersion": .text("0230")])
        let badIFD = Self.patched(data, at: EXIFBlock.entryOffset(2) + 8, data.count + 100)
        #expect(Self.fields(badIFD) == ["Make": .text("A long make"), "Model": .text("Model")])
        #expect(Self.fields(Self.patched(data, at: 4, 0x7FFF_FFFF)).isEmpty)  // IFD0 itself
    }

    @Test("Counts of 0xFFFFFFFF, in every type, are left out", arguments: Array(1...13))
    func hugeCounts(type: Int) {
        var block = EXIFBlock()
        block.ifd0 = [(0x010F, block.short(1)), (0x0110, block.ascii("Model"))]
        var data = block.data
        data.replaceSubrange((EXIFBlock.entryOffset(0) + 2)..<(EXIFBlock.entryOffset(0) + 4), with: le16(type))
        data = Self.patched(data, at: EXIFBlock.entryOffset(0) + 4, 0xFFFF_FFFF)
        #expect(Self.fields(data) == ["Model": .text("Model")])
    }

    @Test("Truncated at every length, a block gives a subset of its fields")
    func truncated() {
        let data = EXIFMetadataTests.cameraBlock(littleEndian: false).data
        let whole = Self.fields(data)
        #expect(whole.count == 30)
        for length in 0..<data.count {
            let fields = Self.fields(data.prefix(length))
            #expect(fields.allSatisfy { whole[$0.key] == $0.value }, "cut at \(length)")
        }
    }

    @Test("65,535 entries all pointing at one long string stay within the value budget")
    func overlappingValues() {
        let string = [UInt8](repeating: 0x41, count: 60_000)
        var out: [UInt8] = [0x49, 0x49] + le16(42) + le32(8) + le16(0xFFFF)
        let stringOffset = 8 + 2 + 12 * 0xFFFF + 4
        for tag in 0..<0xFFFF { out += le16(tag) + le16(2) + le32(60_000) + le32(stringOffset) }
        out += le32(0) + string
        let fields = Self.fields(Data(out))
        #expect(!fields.isEmpty)
        let characters = fields.values.reduce(0) { $0 + ($1.text?.utf8.count ?? 0) }
        #expect(characters <= EXIFFieldReader.maxValueBytes)
    }

    @Test("Random bytes behind a TIFF header never trap")
    func randomBytes() {
        var random = SplitMix64(seed: 0xE1F)
        for _ in 0..<2_000 {
            let count = Int(random.next() % 300)
            var bytes: [UInt8] =
                random.next() % 2 == 0 ? [0x49, 0x49, 42, 0, 8, 0, 0, 0] : [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
            bytes += (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = Self.fields(Data(bytes))
            _ = ImageMetadata(exif: Data(bytes)).exifFields()
        }
    }
}
