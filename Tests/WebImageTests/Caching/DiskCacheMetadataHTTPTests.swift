import Foundation
import Testing

@testable import WebImage

@Suite("Disk cache metadata from HTTP headers")
struct DiskCacheMetadataHTTPTests {
    let stored = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("Validators and content type are kept, header names in any case")
    func validators() {
        let metadata = DiskCacheMetadata(
            httpHeaders: [
                "etag": "\"abc\"", "Last-Modified": "Tue, 14 Nov 2023 22:13:20 GMT", "CONTENT-TYPE": "image/png",
            ],
            storeDate: stored)
        #expect(metadata.etag == "\"abc\"")
        #expect(metadata.lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(metadata.contentType == "image/png")
        #expect(metadata.expirationDate == nil)
        #expect(!metadata.isFresh(at: stored))
    }

    @Test("max-age sets freshness, minus Age; s-maxage wins")
    func maxAge() {
        var metadata = DiskCacheMetadata(httpHeaders: ["Cache-Control": "public, max-age=600"], storeDate: stored)
        #expect(metadata.expirationDate == stored.addingTimeInterval(600))
        #expect(metadata.isFresh(at: stored.addingTimeInterval(599)))
        #expect(!metadata.isFresh(at: stored.addingTimeInterval(600)))
        metadata = DiskCacheMetadata(httpHeaders: ["Cache-Control": "max-age=600", "Age": "100"], storeDate: stored)
        #expect(metadata.expirationDate == stored.addingTimeInterval(500))
        metadata = DiskCacheMetadata(httpHeaders: ["Cache-Control": "max-age=60, s-maxage=\"3600\""], storeDate: stored)
        #expect(metadata.expirationDate == stored.addingTimeInterval(3600))
    }

    @Test("no-cache and no-store are stale at once, whatever else is said")
    func noCache() {
        for value in ["no-cache", "max-age=600, no-store", "No-Cache, max-age=9"] {
            let metadata = DiskCacheMetadata(httpHeaders: ["Cache-Control": value], storeDate: stored)
            #expect(metadata.expirationDate == stored, "\(value)")
            #expect(!metadata.isFresh(at: stored))
        }
    }

    @Test("Expires counts from the server's Date, so clock skew does not matter")
    func expires() {
        let metadata = DiskCacheMetadata(
            httpHeaders: ["Date": "Sun, 06 Nov 1994 08:49:37 GMT", "Expires": "Sun, 06 Nov 1994 09:49:37 GMT"],
            storeDate: stored)
        #expect(metadata.expirationDate == stored.addingTimeInterval(3600))
        let obsolete = DiskCacheMetadata(
            httpHeaders: ["Date": "Sunday, 06-Nov-94 08:49:37 GMT", "Expires": "Sun Nov  6 08:50:37 1994"],
            storeDate: stored)
        #expect(obsolete.expirationDate == stored.addingTimeInterval(60))
    }

    @Test("A malformed Expires means already expired; malformed max-age is ignored")
    func malformed() {
        #expect(DiskCacheMetadata(httpHeaders: ["Expires": "0"], storeDate: stored).expirationDate == stored)
        #expect(
            DiskCacheMetadata(httpHeaders: ["Cache-Control": "max-age=abc"], storeDate: stored).expirationDate == nil)
        #expect(
            DiskCacheMetadata(httpHeaders: ["Cache-Control": "max-age=1e400"], storeDate: stored).expirationDate == nil)
        #expect(
            DiskCacheMetadata(httpHeaders: ["Cache-Control": ",,=,max-age"], storeDate: stored).expirationDate == nil)
    }
}
