import Foundation
import Testing

@testable import WebImage

/// What a browser would run is cut out of a document served as SVG; every other byte is kept.
@Suite("SVG sanitiser")
struct SVGSanitizerTests {
    static func sanitized(_ text: String) throws -> String {
        String(decoding: try SVGSanitizer.sanitized(Data(text.utf8)), as: UTF8.self)
    }

    @Test func scriptsAndEventHandlersAreRemovedAndTheRestIsKeptByteForByte() throws {
        let input = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment <script> inside stays -->
            <svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" width="10"  height="10">
              <script type="text/javascript"><![CDATA[ if (a < b) { document.write("</script>") } ]]></script>
              <rect width="10" height="10" fill="red" onclick='steal()' ONMOUSEOVER="x()"/>
              <g><script/><text x="1">a &lt; b</text></g>
            </svg>
            """
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment <script> inside stays -->
            <svg xmlns="http://www.w3.org/2000/svg" width="10"  height="10">
              
              <rect width="10" height="10" fill="red"/>
              <g><text x="1">a &lt; b</text></g>
            </svg>
            """
        #expect(try Self.sanitized(input) == expected)
    }

    @Test func aDocumentWithNothingToRemoveComesBackAsItWas() throws {
        for name in ["shapes", "prolog", "embedded", "gradients"] {
            let data = try Fixtures.data("svg/\(name).svg")
            #expect(try SVGSanitizer.sanitized(data) == data, "\(name)")
        }
    }

    @Test func namesAreMatchedWhateverTheirPrefixOrCase() throws {
        let input = """
            <svg:svg xmlns:svg="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml">\
            <svg:script>a()</svg:script><SCRIPT>b()</SCRIPT><svg:rect svg:onload="c()" x="1"/>\
            <svg:foreignObject><h:iframe src="https://example.com/"></h:iframe><h:object data="x"/>\
            <h:embed src="x"/><h:form action="https://example.com/"><h:input/></h:form><h:meta http-equiv="refresh"/>\
            <h:base href="https://example.com/"/><h:p>kept</h:p></svg:foreignObject><svg:handler>d()</svg:handler></svg:svg>
            """
        let expected = """
            <svg:svg xmlns:svg="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml">\
            <svg:rect x="1"/><svg:foreignObject><h:p>kept</h:p></svg:foreignObject></svg:svg>
            """
        #expect(try Self.sanitized(input) == expected)
    }

    @Test func linksIntoCodeAreRemovedOthersKept() throws {
        let input = #"""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
            <a href="javascript:alert(1)">1</a><a xlink:href=" java&#x09;script:alert(2)">2</a>
            <a href="JaVaScRiPt&#58;alert(3)">3</a><a href="data:text/html,&lt;script&gt;">4</a>
            <a href="https://example.com/">5</a><a href="/relative#x">6</a><a href="#top">7</a>
            <image href="data:image/png;base64,iVBORw0KGgo="/><image href="vbscript:x"/>
            <use href="#shape"/><use xlink:href="https://example.com/sprite.svg#icon"/><use href="data:image/svg+xml,x#a"/>
            </svg>
            """#
        let expected = #"""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
            <a>1</a><a>2</a>
            <a>3</a><a>4</a>
            <a href="https://example.com/">5</a><a href="/relative#x">6</a><a href="#top">7</a>
            <image href="data:image/png;base64,iVBORw0KGgo="/><image/>
            <use href="#shape"/><use/><use/>
            </svg>
            """#
        #expect(try Self.sanitized(input) == expected)
    }

    @Test func animationsThatWouldSetAHandlerOrALinkAreRemoved() throws {
        let input = """
            <svg xmlns="http://www.w3.org/2000/svg"><a>\
            <set attributeName="href" to="javascript:alert(1)"/>\
            <animate attributeName="xlink:href" values="javascript:alert(2)"></animate>\
            <set attributeName=" onclick" to="alert(3)"/>\
            <animate attributeName="opacity" values="0;1" dur="1s"/></a></svg>
            """
        let expected = """
            <svg xmlns="http://www.w3.org/2000/svg"><a>\
            <animate attributeName="opacity" values="0;1" dur="1s"/></a></svg>
            """
        #expect(try Self.sanitized(input) == expected)
    }

    @Test func onlyCSSStylesheetInstructionsStay() throws {
        let input = """
            <?xml-stylesheet type="text/css" href="a.css"?><?xml-stylesheet type="text/xsl" href="x.xsl"?>\
            <?xml-stylesheet href="y.xsl"?><svg xmlns="http://www.w3.org/2000/svg"/>
            """
        #expect(
            try Self.sanitized(input)
                == #"<?xml-stylesheet type="text/css" href="a.css"?><svg xmlns="http://www.w3.org/2000/svg"/>"#)
    }

    @Test func linksSpelledWithEntitiesAreReadAsABrowserReadsThem() throws {
        let input = """
            <!DOCTYPE svg [<!ENTITY js "javascript:alert(1)"><!ENTITY ns "http://www.w3.org/2000/svg">]>\
            <svg xmlns="&ns;"><a href="&js;">x</a></svg>
            """
        let expected = """
            <!DOCTYPE svg [<!ENTITY js "javascript:alert(1)"><!ENTITY ns "http://www.w3.org/2000/svg">]>\
            <svg xmlns="&ns;"><a>x</a></svg>
            """
        #expect(try Self.sanitized(input) == expected)
    }

    @Test(arguments: [
        "<svg><script>never closed",
        "<svg><rect onload='x()'",
        "<svg><!-- never closed",
        #"<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]><svg>&x;</svg>"#,
        #"<!DOCTYPE svg [<!ATTLIST svg onload CDATA "alert(1)">]><svg/>"#,
        #"<?xml version="1.0" encoding="UTF-16"?><svg/>"#,
    ])
    func documentsThisCannotReadSafelyAreRefused(text: String) {
        expectBadImageData(Comment(rawValue: text)) { try SVGSanitizer.sanitized(Data(text.utf8)) }
    }
}
