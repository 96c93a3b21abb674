import Foundation
import Testing

@testable import WebImage

@Suite("Default User-Agent")
struct UserAgentTests {
    @Test("Names the library, its version and the OS")
    func format() {
        #if os(Linux)
            #expect(WebImageUserAgent.default == "swift-web-image/0.1.0 (Linux; Swift)")
        #endif
        #expect(
            WebImageUserAgent.default
                == "swift-web-image/\(WebImageUserAgent.version) (\(WebImageUserAgent.operatingSystem); Swift)")
        #expect(WebImageUserAgent.version.split(separator: ".").count == 3)
    }

    @Test("Is printable ASCII only")
    func asciiOnly() {
        #expect(WebImageUserAgent.default.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
    }

    @Test("Non-ASCII text is transliterated where it can be and removed where not")
    func transliteration() {
        #expect(WebImageUserAgent.asciiOnly("Café/1.0 (Ünïx; Swift)") == "Cafe/1.0 (Unix; Swift)")
        #expect(WebImageUserAgent.asciiOnly("画像/2 (Linux)") == "/2 (Linux)")
        #expect(WebImageUserAgent.asciiOnly("a\r\nb\u{0}c\u{7F}") == "abc")
        #expect(WebImageUserAgent.asciiOnly("ＡＢＣ") == "ABC")
    }

    @Test("Is the User-Agent of the default image headers, next to SDWebImage's Accept")
    func defaultHeaders() {
        let headers = ImageDownloadHeaders.defaultImageHeaders
        #expect(headers["User-Agent"] == WebImageUserAgent.default)
        #expect(headers["accept"] == "image/*,*/*;q=0.8")
        #expect(headers.fields.map(\.name) == ["Accept", "User-Agent"])
    }
}
