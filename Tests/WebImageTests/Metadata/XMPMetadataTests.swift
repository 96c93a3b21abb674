import Foundation
import Testing

@testable import WebImage

@Suite("Metadata: XMP properties")
struct XMPMetadataTests {
    static func properties(_ xml: String) -> [String: [String: MetadataValue]] {
        ImageMetadata(xmp: Data(xml.utf8)).xmpProperties()
    }

    static func packet(_ description: String) -> String {
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Test">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          \(description)
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    static let spiderMan = packet(
        """
        <rdf:Description rdf:about="" xmlns:aux="http://ns.adobe.com/exif/1.0/aux/"
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            aux:Lens="16.0-35.0 mm f/4.0" aux:SerialNumber='12345678' aux:Note="a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;">
         <!-- a comment <dc:ignored>x</dc:ignored> -->
         <dc:creator>
          <rdf:Seq>
           <rdf:li>Peter B. Parker</rdf:li>
          </rdf:Seq>
         </dc:creator>
         <dc:subject><rdf:Bag><rdf:li>spider-man</rdf:li><rdf:li>menace</rdf:li></rdf:Bag></dc:subject>
         <dc:title><rdf:Alt><rdf:li xml:lang="fr">Homme</rdf:li><rdf:li xml:lang="x-default">Man</rdf:li></rdf:Alt></dc:title>
         <dc:rights><rdf:Alt><rdf:li xml:lang="en">Daily Bugle</rdf:li></rdf:Alt></dc:rights>
         <dc:format>image/jpeg</dc:format>
         <dc:description>caf&#233; &#xE9;t&#xe9; &unknown; &#0; <![CDATA[<raw> & more]]></dc:description>
         <xmp:BaseURL rdf:resource="https://example.com/"/>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
            photoshop:DateCreated="2016-09-11T18:44:50.003" dc:format="image/png"/>
        """)

    @Test("Attributes, elements, Seq, Bag and Alt, grouped by prefix")
    func shapes() {
        let xmp = Self.properties(Self.spiderMan)
        #expect(Set(xmp.keys) == ["aux", "dc", "xmp", "photoshop"])
        #expect(xmp["aux"]?["Lens"] == .text("16.0-35.0 mm f/4.0"))
        #expect(xmp["aux"]?["SerialNumber"] == .text("12345678"))
        #expect(xmp["dc"]?["creator"] == .list([.text("Peter B. Parker")]))
        #expect(xmp["dc"]?["subject"] == .list([.text("spider-man"), .text("menace")]))
        #expect(xmp["dc"]?["title"] == .text("Man"))  // the x-default item
        #expect(xmp["dc"]?["rights"] == .text("Daily Bugle"))  // no x-default: the first
        #expect(xmp["dc"]?["format"] == .text("image/jpeg"))  // the first description wins
        #expect(xmp["xmp"]?["BaseURL"] == .text("https://example.com/"))
        #expect(xmp["photoshop"]?["DateCreated"] == .text("2016-09-11T18:44:50.003"))
        #expect(xmp["dc"]?["ignored"] == nil)
    }

    @Test("Entities, character references and CDATA are decoded; unknown references kept")
    func entities() {
        let xmp = Self.properties(Self.spiderMan)
        #expect(xmp["aux"]?["Note"] == .text(#"a & b <c> "d" 'e'"#))
        #expect(xmp["dc"]?["description"] == .text("café été &unknown; &#0; <raw> & more"))
    }

    @Test("Structures are skipped, their fields do not leak into their own namespaces")
    func structures() {
        let xmp = Self.properties(
            Self.packet(
                """
                <rdf:Description xmlns:I="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" xmlns:e="e:" e:Kept="yes">
                 <I:CreatorContactInfo rdf:parseType="Resource"><I:CiAdrCity>Queens</I:CiAdrCity></I:CreatorContactInfo>
                 <e:Flash><rdf:Description e:Fired="False"/></e:Flash>
                 <e:Short e:Fired="True"/>
                 <e:History><rdf:Seq><rdf:li rdf:parseType="Resource"><e:action>saved</e:action></rdf:li><rdf:li>plain</rdf:li></rdf:Seq></e:History>
                </rdf:Description>
                """))
        #expect(xmp["I"] == nil)
        #expect(xmp["e"] == ["Kept": .text("yes"), "History": .list([.text("plain")])])
    }

    @Test(
        "Malformed packets give what was read before the damage",
        arguments: [
            #"<rdf:RDF><rdf:Description><dc:format>image/jpeg</dc:format><dc:title>Unclosed"#,
            #"<rdf:RDF><rdf:Description><dc:format>image/jpeg</dc:format></dc:wrong><dc:x a="1"#,
            #"<rdf:RDF><rdf:Description><dc:format>image/jpeg</dc:format></rdf:Description><!-- never closed"#,
            #"<rdf:RDF><rdf:Description dc:format="image/jpeg" dc:broken=oops><dc:title"#,
        ])
    func malformed(xml: String) {
        #expect(Self.properties(xml)["dc"]?["format"] == .text("image/jpeg"))
    }

    @Test("Every truncation of a packet reads without trapping, as a subset of the whole")
    func truncated() {
        let bytes = Array(Self.spiderMan.utf8)
        let whole = Self.properties(Self.spiderMan)
        for length in 0...bytes.count {
            let xmp = ImageMetadata(xmp: Data(bytes.prefix(length))).xmpProperties()
            for (prefix, properties) in xmp {
                #expect(properties.keys.allSatisfy { whole[prefix]?[$0] != nil }, "cut at \(length)")
            }
        }
    }

    @Test("Deep nesting and floods of elements stay bounded")
    func bounded() {
        let deep = String(repeating: "<a:b>", count: 100_000) + "x" + String(repeating: "</a:b>", count: 100_000)
        #expect(Self.properties(Self.packet("<rdf:Description>\(deep)</rdf:Description>")).isEmpty)
        let items = String(repeating: "<rdf:li>k</rdf:li>", count: 150_000)
        let flood = Self.properties(
            Self.packet("<rdf:Description><dc:subject><rdf:Bag>\(items)</rdf:Bag></dc:subject></rdf:Description>"))
        let count = flood["dc"]?["subject"]?.list?.count ?? 0
        #expect(count > 90_000 && count < XMLTree.maxNodes)
        #expect(ImageMetadata(xmp: Data([0xFF, 0x3C, 0x3C, 0x3E, 0x26])).xmpProperties().isEmpty)
    }
}
