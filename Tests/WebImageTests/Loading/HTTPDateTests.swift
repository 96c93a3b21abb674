import Foundation
import Testing

@testable import WebImage

@Suite("HTTP dates")
struct HTTPDateTests {
    /// 1994-11-06 08:49:37 GMT, RFC 9110's example instant.
    let example = Date(timeIntervalSince1970: 784_111_777)

    @Test("The three forms RFC 9110 names read as the same instant")
    func rfcForms() {
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(HTTPDate.parse(text) == example, "\(text)")
        }
    }

    @Test("Variants servers send in cookies and headers read too")
    func variants() {
        for text in [
            "Sun, 06-Nov-1994 08:49:37 GMT", "sun, 06 nov 1994 08:49:37 gmt", "SUN, 06 NOVEMBER 1994 08:49:37 GMT",
            "  Sun, 6 Nov 1994 8:49:37 GMT  ", "06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun,\t06 Nov 1994 08:49:37 GMT",
        ] {
            #expect(HTTPDate.parse(text) == example, "\(text)")
        }
    }

    @Test("Two-digit years: 70–99 are the 1900s, 00–69 the 2000s")
    func twoDigitYears() {
        #expect(HTTPDate.parse("Thu, 01-Jan-70 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Wed, 15-Nov-23 22:13:20 GMT") == Date(timeIntervalSince1970: 1_700_086_400))
        #expect(HTTPDate.parse("Fri, 31-Dec-69 23:59:59 GMT") == Date(timeIntervalSince1970: 3_155_759_999))
    }

    @Test("Leap days count: 29 February exists in 2000 and 2024, not in 1900 or 2023")
    func leapDays() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600))
        #expect(HTTPDate.parse("Fri, 01 Mar 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_251_200))
        #expect(HTTPDate.parse("Wed, 29 Feb 2023 00:00:00 GMT") == nil)
        #expect(HTTPDate.parse("Thu, 29 Feb 1900 00:00:00 GMT") == nil)
    }

    @Test("Dates and times that do not exist, and text that is no date, read as nil")
    func invalid() {
        for text in [
            "", "0", "-1", "tomorrow", "Sun, 06 Nov 1994", "Sun, 06 Nov 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
            "Sun, 06 Nov 1994 08:49:60 GMT", "Sun, 06 Nov 1600 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT",
            "Sun, 06 Nov 19945 08:49:37 GMT", "Sun, 06 Nov 1994 108:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37999999999999999999999999 GMT",
            String(repeating: "9", count: 10_000),
        ] {
            #expect(HTTPDate.parse(text) == nil, "\(text.prefix(60))")
        }
    }

    @Test("Text after a number inside a token is allowed, as RFC 6265 says")
    func trailingText() {
        #expect(HTTPDate.parse("Sun, 06th Nov 1994GMT 08:49:37Z") == example)
    }

    @Test("Header uses read dates by hand: Retry-After and Expires")
    func headerUses() {
        let now = example.addingTimeInterval(-30)
        #expect(ImageDownloadRetryPolicy.retryAfterSeconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 30)
        let stored = Date(timeIntervalSince1970: 1_700_000_000)
        let metadata = DiskCacheMetadata(
            httpHeaders: ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Expires": "Sun, 06-Nov-1994 08:59:37 GMT"],
            storeDate: stored)
        #expect(metadata.expirationDate == stored.addingTimeInterval(600))
    }
}
