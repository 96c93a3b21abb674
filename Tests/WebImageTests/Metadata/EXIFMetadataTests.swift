import Foundation
import Testing

@testable import WebImage

@Suite("Metadata: EXIF fields")
struct EXIFMetadataTests {
    /// A camera's block: IFD0, the Exif IFD, GPS and Interoperability, in `littleEndian` order.
    static func cameraBlock(littleEndian: Bool) -> EXIFBlock {
        var block = EXIFBlock(littleEndian: littleEndian)
        block.ifd0 = [
            (0x010F, block.ascii("NIKON CORPORATION")), (0x0110, block.ascii("NIKON D810")),
            (0x0112, block.short(6)), (0x011A, block.rational((300, 1))), (0x0128, block.short(2)),
            (0x0131, block.ascii("Adobe Photoshop Lightroom 6.1 (Windows)")),
            (0x0132, block.ascii("2016:09:11 22:15:03")),
        ]
        block.exif = [
            (0x829A, block.rational((1, 250))), (0x829D, block.rational((16, 1))), (0x8822, block.short(3)),
            (0x8827, block.short(200)), (0x9000, block.undefined(Array("0230".utf8))),
            (0x9003, block.ascii("2016:09:11 18:44:50")), (0x9101, block.undefined([1, 2, 3, 0])),
            (0x9202, block.rational((8, 1))), (0x9204, block.signedRational((-1, 3))), (0x9207, block.short(5)),
            (0x9209, block.short(0x19)), (0x920A, block.rational((50, 1))),
            (0x9286, block.undefined(Array("ASCII\0\0\0Hello".utf8))), (0xA001, block.short(1)),
            (0xA002, block.long(7360)), (0xA408, block.short(0)),
        ]
        block.gps = [
            (0x0000, block.byte([2, 3, 0, 0])), (0x0001, block.ascii("N")),
            (0x0002, block.rational((52, 1), (22, 1), (1234, 100))), (0x0005, block.byte([0])),
            (0x0007, block.rational((14, 1), (30, 1), (505, 100))),
        ]
        block.interoperability = [(0x0001, block.ascii("R98")), (0x0002, block.undefined(Array("0100".utf8)))]
        return block
    }

    @Test("Readable titles and canonical names both read every IFD", arguments: [true, false])
    func namesBothWays(littleEndian: Bool) {
        let metadata = ImageMetadata(exif: Self.cameraBlock(littleEndian: littleEndian).data)
        let readable = metadata.exifFields()
        let canonical = metadata.exifFields(canonicalNames: true)
        #expect(readable.count == canonical.count)
        #expect(readable["Model"] == .text("NIKON D810"))
        #expect(readable["Manufacturer"] == .text("NIKON CORPORATION"))
        #expect(canonical["Make"] == .text("NIKON CORPORATION"))
        #expect(readable["Date and Time"] == .text("2016:09:11 22:15:03"))
        #expect(readable["Date and Time (Original)"] == .text("2016:09:11 18:44:50"))
        #expect(canonical["DateTimeOriginal"] == .text("2016:09:11 18:44:50"))
        #expect(readable["Aperture"] == .text("8.00 EV (f/16.0)"))
        #expect(canonical["ApertureValue"] == .text("8.00 EV (f/16.0)"))
        #expect(readable["Latitude"] == .list([.text("52/1"), .text("22/1"), .text("1234/100")]))
        #expect(canonical["GPSLatitude"] == readable["Latitude"])
        #expect(readable["North or South Latitude"] == .text("N"))
        #expect(readable["Interoperability Index"] == .text("R98"))
        #expect(canonical["InteroperabilityVersion"] == .text("0100"))
        // The pointers that join the IFDs are structure, not fields.
        #expect(canonical["ExifIfdPointer"] == nil && canonical["GPSInfoIFDPointer"] == nil)
    }

    @Test("Values: numbers, fraction text, enumerations by meaning and libexif's formats")
    func values() {
        let fields = ImageMetadata(exif: Self.cameraBlock(littleEndian: true).data).exifFields(canonicalNames: true)
        #expect(fields["Orientation"] == .text("Right-top"))
        #expect(fields["XResolution"] == .text("300/1"))
        #expect(fields["ResolutionUnit"] == .text("Inch"))
        #expect(fields["ISOSpeedRatings"] == .integer(200))
        #expect(fields["PixelXDimension"] == .integer(7360))
        #expect(fields["ExposureTime"] == .text("1/250 sec."))
        #expect(fields["FNumber"] == .text("f/16.0"))
        #expect(fields["ExposureProgram"] == .text("Aperture priority"))
        #expect(fields["ExposureBiasValue"] == .text("-0.33 EV"))
        #expect(fields["MeteringMode"] == .text("Pattern"))
        #expect(fields["Flash"] == .text("Flash fired, auto mode"))
        #expect(fields["FocalLength"] == .text("50.0 mm"))
        #expect(fields["ColorSpace"] == .text("sRGB"))
        #expect(fields["Contrast"] == .text("Normal"))
        #expect(fields["ExifVersion"] == .text("0230"))
        #expect(fields["ComponentsConfiguration"] == .text("Y Cb Cr -"))
        #expect(fields["UserComment"] == .text("Hello"))
        #expect(fields["GPSVersionID"] == .text("2.3.0.0"))
        #expect(fields["GPSAltitudeRef"] == .text("Sea level"))
        #expect(fields["GPSTimeStamp"] == .text("14:30:05.05"))
    }

    @Test("An enumerated value no table lists stays a number; an unknown tag keeps its number")
    func unlistedValuesAndUnknownTags() {
        var block = EXIFBlock()
        block.ifd0 = [(0x0112, block.short(9)), (0xC612, block.byte([1, 4, 0, 0])), (0x4746, block.short(5))]
        block.exif = [(0x9207, block.short(77)), (0xA40C, block.long(2))]
        let metadata = ImageMetadata(exif: block.data)
        for canonical in [true, false] {
            let fields = metadata.exifFields(canonicalNames: canonical)
            #expect(fields["Orientation"] == .integer(9))
            #expect(fields["Tag 0xC612"] == .list([.integer(1), .integer(4), .integer(0), .integer(0)]))
            #expect(fields["Tag 0x4746"] == .integer(5))
        }
        let fields = metadata.exifFields(canonicalNames: true)
        #expect(fields["MeteringMode"] == .integer(77))
        #expect(fields["SubjectDistanceRange"] == .text("Close view"))  // a LONG where a SHORT belongs
    }

    @Test("The maker note, binary data and the thumbnail's IFD1 are skipped")
    func skipped() {
        var block = EXIFBlock()
        block.ifd0 = [(0x0110, block.ascii("X")), (0x02BC, block.byte(Array(repeating: 0x41, count: 40)))]
        block.exif = [
            (0x927C, block.undefined(Array("Nikon\0\u{2}\u{10}\0\0MM".utf8))),
            (0xA302, block.undefined([0, 2, 0, 2, 0, 1, 1, 2])),  // CFAPattern: binary
            (0x9000, block.undefined(Array("0230".utf8))),
        ]
        var data = block.data
        // Chain an IFD1 holding Model after IFD0: it must not replace IFD0's.
        let ifd1 = data.count
        data += le16(1) + le16(0x0110) + le16(2) + le32(4) + Array("Y\0\0\0".utf8) + le32(0)
        let next = 8 + 2 + 12 * 3  // IFD0 has Model, XMLPacket and the Exif pointer
        data.replaceSubrange(next..<(next + 4), with: le32(ifd1))
        let fields = ImageMetadata(exif: data).exifFields(canonicalNames: true)
        #expect(fields == ["Model": .text("X"), "ExifVersion": .text("0230")])
    }

    @Test("Text: NULs and trailing spaces dropped, UTF-16 XP tags and UNICODE comments decoded")
    func text() {
        var block = EXIFBlock(littleEndian: false)
        block.ifd0 = [
            (0x010F, block.ascii("Canon   ")), (0x010E, block.undefined(Array("abc\0\0".utf8))),
            (0x9C9B, block.byte("Tïtle".utf16.flatMap { le16(Int($0)) } + [0, 0])),
        ]
        block.exif = [(0x9286, block.undefined(Array("UNICODE\0".utf8) + "Hi".utf16.flatMap { be16(Int($0)) }))]
        let fields = ImageMetadata(exif: block.data).exifFields(canonicalNames: true)
        #expect(fields["Make"] == .text("Canon"))
        #expect(fields["ImageDescription"] == .text("abc"))  // UNDEFINED where ASCII belongs, printable
        #expect(fields["XPTitle"] == .text("Tïtle"))
        #expect(fields["UserComment"] == .text("Hi"))
    }

    @Test("A block behind a stray Exif prefix reads; one that is not TIFF data reads as empty")
    func prefixAndGarbage() {
        var block = EXIFBlock()
        block.ifd0 = [(0x0110, block.ascii("M"))]
        #expect(ImageMetadata(exif: Data("Exif\0\0".utf8) + block.data).exifFields()["Model"] == .text("M"))
        #expect(ImageMetadata(exif: Data("not a tiff block".utf8)).exifFields().isEmpty)
        #expect(ImageMetadata().exifFields().isEmpty)
    }

    @Test("Values encode to the JSON imgproxy's /info returns")
    func json() throws {
        let fields: [String: MetadataValue] = [
            "a": .text("x"), "b": .integer(3), "c": .number(1.5), "d": .list([.integer(1), .text("y")]),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(fields), as: UTF8.self)
        #expect(json == #"{"a":"x","b":3,"c":1.5,"d":[1,"y"]}"#)
    }
}
