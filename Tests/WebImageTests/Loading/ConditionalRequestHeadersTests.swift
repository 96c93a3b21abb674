import Foundation
import Testing

@testable import WebImage

@Suite("Conditional request headers from stored validators")
struct ConditionalRequestHeadersTests {
    private func names(_ headers: [(String, String)]) -> [String] { headers.map(\.0) }
    private func values(_ headers: [(String, String)]) -> [String] { headers.map(\.1) }

    @Test("Both validators are sent when both are known, If-None-Match first")
    func both() {
        let metadata = DiskCacheMetadata(etag: "W/\"v1\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT")
        let headers = ImageDownloadConditionalRequest.headers(for: metadata)
        #expect(names(headers) == ["If-None-Match", "If-Modified-Since"])
        #expect(values(headers) == ["W/\"v1\"", "Tue, 14 Nov 2023 22:13:20 GMT"])
    }

    @Test("Only the known validator is sent")
    func one() {
        let etagOnly = ImageDownloadConditionalRequest.headers(for: DiskCacheMetadata(etag: "\"abc\""))
        #expect(names(etagOnly) == ["If-None-Match"])
        #expect(values(etagOnly) == ["\"abc\""])
        let dateOnly = ImageDownloadConditionalRequest.headers(
            for: DiskCacheMetadata(lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"))
        #expect(names(dateOnly) == ["If-Modified-Since"])
    }

    @Test("No metadata or no validators: no headers")
    func none() {
        #expect(ImageDownloadConditionalRequest.headers(for: nil).isEmpty)
        #expect(ImageDownloadConditionalRequest.headers(for: DiskCacheMetadata(contentType: "image/png")).isEmpty)
        #expect(ImageDownloadConditionalRequest.headers(for: DiskCacheMetadata(etag: "", lastModified: "  ")).isEmpty)
    }

    @Test("Validators read from response headers round-trip into the request")
    func fromResponse() {
        let metadata = DiskCacheMetadata(httpHeaders: [
            "ETag": "\"x\"", "Last-Modified": "Mon, 13 Nov 2023 10:00:00 GMT",
        ])
        let headers = ImageDownloadConditionalRequest.headers(for: metadata)
        #expect(values(headers) == ["\"x\"", "Mon, 13 Nov 2023 10:00:00 GMT"])
    }

    @Test("A validator holding CR, LF or another control character is left out")
    func controlCharacters() {
        let metadata = DiskCacheMetadata(etag: "\"a\"\r\nX-Evil: 1", lastModified: "Tue, 14 Nov 2023\n 22:13:20 GMT")
        #expect(ImageDownloadConditionalRequest.headers(for: metadata).isEmpty)
        let nul = DiskCacheMetadata(etag: "\"a\u{0}\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(names(ImageDownloadConditionalRequest.headers(for: nul)) == ["If-Modified-Since"])
    }
}
