import Foundation
import Testing

@testable import WebImage

@Suite("Metadata: IPTC and Photoshop resolution")
struct IPTCMetadataTests {
    static func dataset(_ record: UInt8, _ number: UInt8, _ value: [UInt8]) -> [UInt8] {
        [0x1C, record, number] + be16(value.count) + value
    }

    static func dataset(_ record: UInt8, _ number: UInt8, _ text: String) -> [UInt8] {
        dataset(record, number, Array(text.utf8))
    }

    static func resource(_ id: Int, _ data: [UInt8]) -> [UInt8] {
        Array("8BIM".utf8) + be16(id) + [0, 0] + be32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    /// ResolutionInfo: `dpi` horizontally and vertically, in inches, sizes shown in `sizeUnit`.
    static func resolution(_ dpi: Int, unit: Int = 1, sizeUnit: Int = 1) -> [UInt8] {
        be32(dpi << 16) + be16(unit) + be16(sizeUnit) + be32(dpi << 16) + be16(unit) + be16(sizeUnit)
    }

    /// A plain JPEG with `payloads` as APP13 segments after its SOI.
    static func jpeg(app13 payloads: [[UInt8]]) throws -> Data {
        let plain = try Fixtures.data("jpeg/baseline.jpg")
        var out = Data(plain.prefix(2))
        for payload in payloads { out += [0xFF, 0xED] + be16(payload.count + 2) + payload }
        return out + plain.dropFirst(2)
    }

    static let photoshop = Array("Photoshop 3.0\0".utf8)

    static let spiderMan: [UInt8] =
        dataset(2, 0, [0, 4]) + dataset(2, 5, "Spider-Man") + dataset(2, 120, "Spider-Man swings on the web")
        + dataset(2, 116, "Daily Bugle") + dataset(2, 25, "spider-man") + dataset(2, 25, "menace")
        + dataset(2, 25, "offender") + dataset(2, 80, "Peter B. Parker") + dataset(2, 10, "5")

    @Test("Datasets by imgproxy's names, repeated ones as lists, Name and Caption aliases")
    func names() throws {
        let iptc = IPTCMetadata(file: try Self.jpeg(app13: [Self.photoshop + Self.resource(0x0404, Self.spiderMan)]))
        #expect(iptc.fields["Object Name"] == .text("Spider-Man"))
        #expect(iptc.fields["Name"] == .text("Spider-Man"))
        #expect(iptc.fields["Caption/Abstract"] == .text("Spider-Man swings on the web"))
        #expect(iptc.fields["Caption"] == .text("Spider-Man swings on the web"))
        #expect(iptc.fields["Copyright Notice"] == .text("Daily Bugle"))
        #expect(iptc.fields["Keywords"] == .list([.text("spider-man"), .text("menace"), .text("offender")]))
        #expect(iptc.fields["By-line"] == .list([.text("Peter B. Parker")]))
        #expect(iptc.fields["Record Version"] == .integer(4))
        #expect(iptc.fields["Urgency"] == .text("5"))
        #expect(iptc.fields.count == 9)
        #expect(iptc.photoshopResolution.isEmpty)
    }

    @Test("The resolution resource's fields, units by name")
    func resolution() throws {
        let payload = Self.photoshop + Self.resource(0x03ED, Self.resolution(240)) + Self.resource(0x0404, [])
        let iptc = IPTCMetadata(file: try Self.jpeg(app13: [payload]))
        #expect(
            iptc.photoshopResolution == [
                "XResolution": .integer(240), "XResolutionUnit": .text("inches"), "WidthUnit": .text("inches"),
                "YResolution": .integer(240), "YResolutionUnit": .text("inches"), "HeightUnit": .text("inches"),
            ])
        #expect(iptc.fields.isEmpty && !iptc.isEmpty)
        var fractional = Self.resolution(0, unit: 2, sizeUnit: 3)
        fractional.replaceSubrange(0..<4, with: be32(0x0048_8000))  // 72.5
        let cm = IPTCMetadata(file: try Self.jpeg(app13: [Self.photoshop + Self.resource(0x03ED, fractional)]))
        #expect(cm.photoshopResolution["XResolution"] == .number(72.5))
        #expect(cm.photoshopResolution["XResolutionUnit"] == .text("cm"))
        #expect(cm.photoshopResolution["WidthUnit"] == .text("points"))
    }

    @Test("Resources split over two APP13 segments, an odd-sized name, extended lengths, Latin-1 text")
    func encodings() throws {
        let iim =
            Self.dataset(2, 116, [0x63, 0xA9, 0x20, 0x4A]) + [0x1C, 2, 105, 0x80, 0x04] + be32(3) + Array("Big".utf8)
        var resource = Array("8BIM".utf8) + be16(0x0404) + [3] + Array("abc".utf8) + be32(iim.count) + iim
        if iim.count % 2 == 1 { resource.append(0) }
        let split = resource.count / 2
        let iptc = IPTCMetadata(
            file: try Self.jpeg(app13: [Self.photoshop + resource[..<split], Self.photoshop + resource[split...]]))
        #expect(iptc.fields["Copyright Notice"] == .text("c© J"))
        #expect(iptc.fields["Headline"] == .text("Big"))
    }

    @Test("TIFF: the IPTC tag and the Photoshop resources tag of IFD0")
    func tiff() {
        var block = EXIFBlock(littleEndian: false)
        block.ifd0 = [
            (0x83BB, block.undefined(Self.dataset(2, 5, "Title") + Self.dataset(2, 25, "one"))),
            (0x8649, block.byte(Self.resource(0x03ED, Self.resolution(300)))),
        ]
        let iptc = IPTCMetadata(file: block.data)
        #expect(
            iptc.fields == ["Object Name": .text("Title"), "Name": .text("Title"), "Keywords": .list([.text("one")])])
        #expect(iptc.photoshopResolution["YResolution"] == .integer(300))
    }

    @Test("Other formats, and JPEGs without APP13, have none")
    func absent() throws {
        #expect(IPTCMetadata(file: try Fixtures.data("png/rgba8.png")).isEmpty)
        #expect(IPTCMetadata(file: try Fixtures.data("jpeg/baseline.jpg")).isEmpty)
        #expect(IPTCMetadata(file: Data()).isEmpty)
    }

    @Test("Lying lengths and truncation give what was read before them")
    func hostile() throws {
        let good = Self.dataset(2, 5, "Kept")
        let cases: [[UInt8]] = [
            good + [0x1C, 2, 25, 0xFF, 0xFF] + Array("short".utf8),  // longer than the data
            good + [0x1C, 2, 25, 0x80, 0x00, 1, 2],  // an extended length of width 0
            good + [0x1C, 2, 25, 0x80, 0x09] + [UInt8](repeating: 0xFF, count: 12),  // width 9
            good + [0x1C, 2, 25, 0x80, 0x08] + [UInt8](repeating: 0xFF, count: 12),  // 2^64 - 1
            good + [0x1C, 2, 0, 0, 7] + Array("1234567".utf8),  // a number of seven bytes
        ]
        for iim in cases {
            let iptc = IPTCMetadata(file: try Self.jpeg(app13: [Self.photoshop + Self.resource(0x0404, iim)]))
            #expect(iptc.fields == ["Object Name": .text("Kept"), "Name": .text("Kept")])
        }
        // A resource whose size runs past the segment ends the resources before it.
        let lying = Array("8BIM".utf8) + be16(0x0404) + [0, 0] + be32(0xFFFF_FFF0) + good
        let payload = Self.photoshop + Self.resource(0x03ED, Self.resolution(72)) + lying
        let iptc = IPTCMetadata(file: try Self.jpeg(app13: [payload]))
        #expect(iptc.fields.isEmpty && iptc.photoshopResolution["XResolution"] == .integer(72))

        // Cut anywhere, the datasets read are a subset of the whole (a repeated one may have fewer items).
        let expected = IPTCMetadata(
            file: try Self.jpeg(app13: [Self.photoshop + Self.resource(0x0404, Self.spiderMan)]))
        for length in 0..<Self.spiderMan.count {
            let iim = Array(Self.spiderMan.prefix(length))
            let fields = IPTCMetadata(file: try Self.jpeg(app13: [Self.photoshop + Self.resource(0x0404, iim)])).fields
            #expect(fields.allSatisfy { expected.fields[$0.key] != nil }, "cut at \(length)")
        }
    }
}
