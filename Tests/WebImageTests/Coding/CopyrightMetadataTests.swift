import Foundation
import Testing

@testable import WebImage

/// `ImageMetadata.keepingCopyright()`: EXIF and XMP reduced to who made and who owns an image.
@Suite("Metadata: keeping only the copyright")
struct CopyrightMetadataTests {
    /// A TIFF block with IFD0 entries of (tag, type, value bytes), values longer than 4 bytes
    /// placed after the IFD.
    static func tiff(_ entries: [(tag: Int, type: Int, value: [UInt8])], littleEndian: Bool = true) -> Data {
        let u16 = littleEndian ? le16 : be16
        let u32 = littleEndian ? le32 : be32
        var out = (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8)
        out += u16(entries.count)
        var trailing: [UInt8] = []
        let dataStart = 8 + 2 + entries.count * 12 + 4
        for entry in entries {
            out += u16(entry.tag) + u16(entry.type) + u32(entry.value.count)
            if entry.value.count <= 4 {
                out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                out += u32(dataStart + trailing.count)
                trailing += entry.value
            }
        }
        return Data(out + u32(0) + trailing)
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

    static let cameraEXIF = tiff([
        (0x010F, 2, ascii("Camera maker")), (0x0112, 3, le16(6)), (0x013B, 2, ascii("Ann Author")),
        (0x8298, 2, ascii("(c) 2026 Ann")), (0x8825, 4, le32(0)),
    ])

    /// The ASCII value of `tag` in IFD0 of `tiff`, without its terminating NUL.
    static func value(_ tag: Int, in tiff: Data) -> String? {
        tiff.withUnsafeBytes { raw -> String? in
            guard let reader = TIFFReader(raw), let ifd = reader.firstIFD,
                let entry = reader.entry(tag: tag, inIFDAt: ifd), let count = reader.u32(entry + 4)
            else { return nil }
            let start = count <= 4 ? entry + 8 : (reader.u32(entry + 8) ?? 0)
            return String(decoding: raw[start..<(start + count)].prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    static func entryCount(of tiff: Data) -> Int? {
        tiff.withUnsafeBytes { raw in TIFFReader(raw).flatMap { reader in reader.firstIFD.flatMap { reader.u16($0) } } }
    }

    @Test(arguments: [true, false])
    func exifKeepsOnlyArtistAndCopyrightInAFreshTIFF(littleEndian: Bool) throws {
        let source = Self.tiff(
            [
                (0x010F, 2, Self.ascii("Camera maker")), (0x013B, 2, Self.ascii("Ann Author")),
                (0x8298, 2, Self.ascii("(c) 2026 Ann")),
            ], littleEndian: littleEndian)
        let kept = try #require(ImageMetadata(exif: source).keepingCopyright().exif)
        #expect(kept.starts(with: littleEndian ? Array("II*\0".utf8) : Array("MM\0*".utf8)))
        #expect(Self.entryCount(of: kept) == 2)
        #expect(Self.value(0x013B, in: kept) == "Ann Author")
        #expect(Self.value(0x8298, in: kept) == "(c) 2026 Ann")
        #expect(Self.value(0x010F, in: kept) == nil)
        #expect(kept.range(of: Data("Camera".utf8)) == nil)
    }

    @Test func aShortCopyrightStoredInTheEntryItselfIsKept() throws {
        let kept = try #require(EXIFCopyright.reduced(Self.tiff([(0x8298, 2, Self.ascii("Bo"))])))
        #expect(Self.value(0x8298, in: kept) == "Bo")
        #expect(Self.entryCount(of: kept) == 1)
    }

    @Test func exifWithoutArtistOrCopyrightIsDropped() {
        let camera = Self.tiff([(0x010F, 2, Self.ascii("Camera maker")), (0x0112, 3, le16(6))])
        #expect(ImageMetadata(exif: camera).keepingCopyright().exif == nil)
        // A copyright of another type than ASCII is not one.
        #expect(EXIFCopyright.reduced(Self.tiff([(0x8298, 4, le32(7))])) == nil)
    }

    @Test func hostileEXIFNeverTrapsAndIsDropped() {
        var offsetOutside = [UInt8](Self.tiff([(0x8298, 2, Self.ascii("(c) 2026 Ann"))]))
        offsetOutside[18...21] = [0xFF, 0xFF, 0xFF, 0x7F][...]
        var countHuge = [UInt8](Self.tiff([(0x8298, 2, Self.ascii("(c) 2026 Ann"))]))
        countHuge[14...17] = [0xFF, 0xFF, 0xFF, 0xFF][...]
        let cases: [[UInt8]] = [
            [], Array("II*\0".utf8), Array("II*\0".utf8) + le32(0xFFFF_FFFF),
            Array("II*\0".utf8) + le32(8) + le16(0xFFFF),
            offsetOutside, countHuge, Array(Self.cameraEXIF.prefix(30)),
        ]
        for bytes in cases { #expect(EXIFCopyright.reduced(Data(bytes)) == nil, "\(bytes)") }
    }

    static let richXMP = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"
          xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/" xmlns:cc="http://creativecommons.org/ns#"
          xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
          xmpRights:Marked="True" exif:GPSLatitude="48,51.0N" photoshop:City="Paris">
         <!-- <dc:rights>not this one</dc:rights> -->
         <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Holiday</rdf:li></rdf:Alt></dc:title>
         <dc:creator><rdf:Seq><rdf:li>Ann Author</rdf:li></rdf:Seq></dc:creator>
         <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">(c) 2026 Ann &amp; Co</rdf:li></rdf:Alt></dc:rights>
         <xmpRights:WebStatement>https://example.com/licence</xmpRights:WebStatement>
         <cc:license rdf:resource="https://creativecommons.org/licenses/by/4.0/"/>
         <exif:UserComment>secret place</exif:UserComment>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """

    @Test func xmpKeepsTheRightsAndCreatorsInAFreshPacket() throws {
        let kept = try #require(ImageMetadata(xmp: Data(Self.richXMP.utf8)).keepingCopyright().xmp)
        let text = String(decoding: kept, as: UTF8.self)
        for expected in [
            "<dc:creator><rdf:Seq><rdf:li>Ann Author</rdf:li></rdf:Seq></dc:creator>",
            "(c) 2026 Ann &amp; Co</rdf:li>", "xmpRights:Marked=\"True\"",
            "<xmpRights:WebStatement>https://example.com/licence</xmpRights:WebStatement>",
            "<cc:license rdf:resource=\"https://creativecommons.org/licenses/by/4.0/\"/>",
            "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"", "xmlns:cc=\"http://creativecommons.org/ns#\"",
            "<?xpacket end=\"w\"?>",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
        for stripped in ["Holiday", "GPSLatitude", "Paris", "secret place", "not this one", "xmlns:exif"] {
            #expect(!text.contains(stripped), "\(stripped)")
        }
        #expect(text.components(separatedBy: "<rdf:Description").count == 2)
        #expect(text.hasSuffix("</x:xmpmeta>\n<?xpacket end=\"w\"?>"))
    }

    @Test func xmpWithoutCopyrightPropertiesIsDropped() throws {
        let fixture = try Fixtures.data("metadata/metadata.xmp")
        // The fixture's only property is dc:creator, which stays.
        #expect(ImageMetadata(xmp: fixture).keepingCopyright().xmp != nil)
        let titleOnly = Data(
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description><dc:title>T</dc:title><cc:x"#.utf8)
        #expect(XMPCopyright.reduced(titleOnly) == nil)
        for hostile in ["", "<", "<dc:rights", "<dc:rights>never closed", "<a b=\"", "<!--", "<![CDATA[", "<x y=z>"] {
            #expect(XMPCopyright.reduced(Data(hostile.utf8)) == nil, "\(hostile)")
        }
    }

    @Test func theICCProfileIsKeptAsItIs() {
        let metadata = ImageMetadata(exif: Self.cameraEXIF, iccProfile: Data([1, 2, 3]), xmp: nil)
        let kept = metadata.keepingCopyright()
        #expect(kept.iccProfile == Data([1, 2, 3]))
        #expect(kept.exif.map { Self.value(0x013B, in: $0) } == "Ann Author")
    }
}
