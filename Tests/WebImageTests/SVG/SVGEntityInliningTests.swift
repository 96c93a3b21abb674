#if SVG
    import Foundation
    import Testing

    @testable import WebImage

    /// Entities written out before librsvg reads a document (librsvg 2.54 never frees the ones
    /// it reads): the document draws the same, and embedded documents may declare none.
    @Suite("SVG entity inlining")
    struct SVGEntityInliningTests {
        static let declared = SVGFixtures.document(
            #"<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd" ["#
                + ##"<!ENTITY ns "http://www.w3.org/2000/svg"><!ENTITY red "#ff0000"><!ENTITY w "30">"##
                + #"<!ENTITY label 'say "red"'><!ENTITY q "it's">]>"#
                + #"<svg xmlns="&ns;" width="40" height="20"><rect width="&w;" height="20" fill='&red;'/>"#
                + #"<desc id='&q;' class="&label;">&label; &amp; &#65;</desc></svg>"#)

        static let writtenOut = SVGFixtures.document(
            #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">"#
                + #"<rect width="30" height="20" fill='#ff0000'/></svg>"#)

        static func inlined(_ data: Data) throws -> String? {
            try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try SVGEntityInlining.inlined(bytes) }
                .map { String(decoding: $0, as: UTF8.self) }
        }

        @Test func declaredEntitiesAreWrittenOutAndTheDocumentTypeLeftOut() throws {
            let text = try #require(try Self.inlined(Self.declared))
            #expect(!text.contains("<!DOCTYPE") && !text.contains("<!ENTITY"))
            #expect(text.contains(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">"#))
            #expect(text.contains(#"<rect width="30" height="20" fill='#ff0000'/>"#))
            // The value's own quote becomes a reference; predefined and character references stay.
            #expect(text.contains(#"<desc id='it&apos;s' class="say &quot;red&quot;">"#))
            #expect(text.contains(#">say "red" &amp; &#65;</desc>"#))
        }

        @Test func aDocumentWithEntitiesDrawsAsTheSameDocumentWrittenOut() throws {
            let drawn = try SVGCoder().decode(Self.declared, options: ImageDecodeOptions())
            let reference = try SVGCoder().decode(Self.writtenOut, options: ImageDecodeOptions())
            #expect(drawn.bitmap.size == PixelSize(width: 40, height: 20))
            #expect(drawn.bitmap == reference.bitmap)
            #expect(drawn.bitmap[5, 5] == RGBA8(r: 255, g: 0, b: 0) && drawn.bitmap[35, 5].a == 0)
        }

        @Test func aDocumentWithoutEntitiesIsReadAsItIs() throws {
            #expect(try Self.inlined(Self.writtenOut) == nil)
            let doctypeOnly = SVGFixtures.document(
                #"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd"><svg width="4" height="4"/>"#)
            #expect(try Self.inlined(doctypeOnly) == nil)
        }

        @Test func anEmbeddedDocumentThatDeclaresEntitiesIsRefused() throws {
            let inner = SVGFixtures.document(
                #"<!DOCTYPE svg [<!ENTITY c "blue">]><svg xmlns="http://www.w3.org/2000/svg" "#
                    + #"width="4" height="4"><rect width="4" height="4" fill="&c;"/></svg>"#)
            let outer = SVGFixtures.svg(
                #"width="4" height="4""#,
                #"<image width="4" height="4" href="data:image/svg+xml;base64,"#
                    + inner.base64EncodedString() + #""/>"#)
            expectSVGError(containing: "a document it embeds declares entities") {
                try SVGCoder().decode(outer, options: ImageDecodeOptions())
            }
            // The same document on its own is drawn.
            let alone = try SVGCoder().decode(inner, options: ImageDecodeOptions())
            #expect(alone.bitmap[1, 1] == RGBA8(r: 0, g: 0, b: 255))
        }
    }
#endif
