import Foundation
import Testing

@testable import WebImage

/// The downloader sends only http and https URLs with a host; the quick string check must
/// never accept what Foundation's parser would refuse.
@Suite("ImageDownloader URL check")
struct DownloaderURLCheckTests {
    private static let cases: [(String, Bool)] = [
        ("http://example.com/a.png", true),
        ("HTTPS://Example.COM:8443/a.png?x=1#f", true),
        ("https://127.0.0.1", true),
        ("http://a-b.c.d:80?q", true),
        ("http://user:pw@example.com/a.png", true),
        ("http://[::1]:8080/a.png", true),
        ("http://xn--bcher-kva.example/a.png", true),
        ("http:///a.png", false),
        ("http://:80/a.png", false),
        ("ftp://example.com/a.png", false),
        ("http+unix://%2Ftmp%2Fsocket/a.png", false),
        ("unix:///tmp/socket", false),
        ("file:///etc/passwd", false),
        ("httpx://example.com/", false),
        ("data:image/png;base64,AAAA", false),
    ]

    @Test("Only http(s) URLs with a host pass, whichever way they are checked", arguments: cases)
    func fetchable(_ string: String, _ expected: Bool) throws {
        let url = try #require(URL(string: string))
        #expect(HTTPTransfer.isFetchable(url, absoluteString: url.absoluteString) == expected)
        let scheme = url.scheme?.lowercased()
        let foundation = (scheme == "http" || scheme == "https") && url.host?.isEmpty == false
        #expect(foundation == expected)
    }
}
