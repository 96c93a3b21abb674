import Foundation
import Testing

@testable import WebImage

/// The key's path extension (the decode type hint and the disk file name's suffix) comes from a
/// byte scan for plain http(s) keys; it must say exactly what Foundation's URL parser says.
@Suite("Cache key path extensions")
struct CacheKeyPathExtensionTests {
    static func foundation(_ key: String) -> String? { URL(string: key)?.pathExtension }

    @Test(
        "The byte scan agrees with Foundation on plain http keys",
        arguments: [
            "http://a/b/c.jpg", "https://h:8/x.PNG?q=1#f", "http://h/a.", "http://h/a.b.c",
            "http://h/dir/", "http://h", "http://h/", "http://h/a.jpg/", "http://h/a.jpg//", "http://h/a..jpg",
            "http://h/a.jpg;p", "http://h/a.tar.gz", "http://h/a.j-p", "http://h/a.j~p", "http://h?x=a.jpg",
            "http://h#a.jpg", "http://h?x=/a.jpg", "http://h/a?b.jpg", "http://h/a#b.jpg", "http://h/a.jpg@2x",
            "http://h/a@2x.jpg", "http://h//a.jpg", "http://h/./a.jpg", "http://h/a/../b.png", "http://h/a.png.",
            "http://h/a.png..", "http://h/ab.c!", "http://h/a.c+d", "http://h/a.c=d", "http://h/a.c,d",
            "http://h/a.c$d", "http://h/a.c&d", "http://h/a.c'd", "http://h/a.c(d)", "http://h/a.c*d",
            "http://h/a.c:d", "http://h/a:b.c", "http://h.example.com/a.b/c", "http://h.example.com", "http://h/x..",
            "http://127.0.0.1:8080/images/12.jpg", "https://h/a.webp?w=100&h=100#frag.png",
        ])
    func agreesWithFoundation(key: String) throws {
        let scanned = try #require(CacheKeys.plainHTTPPathExtension(key))
        #expect(scanned == Self.foundation(key))
        #expect(CacheKeys.pathExtension(forKey: key) == scanned)
    }

    @Test(
        "Keys the scan does not take go to Foundation",
        arguments: [
            "HTTP://h/a.jpg", "file:///tmp/a.png", "ftp://h/a.gif", "http://h/a%20b.jpg", "http://[::1]:80/a.webp",
            "http://h/a.j g", "http://h/a.jpg\u{0}", "http://h/é.png", "image.png", "", "http:/h/a.jpg",
            "http://h/a{b}.jpg", "http://h'x/a.jpg", "http://u@h/a.jpg", "http://h:80a/a.jpg", "http://h/a#b#c.jpg",
            "http://h:/a.jpg", "http:///a.jpg", "http://h/.jpg", "http://h/..a", "http://h/..a.b", "http://h/....a",
            "http://h/a/.x.y", "http://h/..", "http://h/.", "http://h/x/...jpg", "http://h/a/..",
        ])
    func othersFallBack(key: String) {
        #expect(CacheKeys.plainHTTPPathExtension(key) == nil)
    }

    @Test("On 20,000 random http keys the scan and Foundation agree")
    func randomKeysAgree() {
        var random = SplitMix64(seed: 0x5EED_CAFE)
        let alphabet = Array("ab.Z9/?#=&-_~:;@!$'()*+,".utf8)
        var compared = 0
        for _ in 0..<20_000 {
            let length = Int(random.next() % 24)
            let tail = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let scheme = random.next() % 2 == 0 ? "http://" : "https://"
            let host = ["h", "h.example.com", "127.0.0.1:8080", "h:1", "h-1.x"][Int(random.next() % 5)]
            let key = scheme + host + "/" + String(decoding: tail, as: UTF8.self)
            guard let scanned = CacheKeys.plainHTTPPathExtension(key) else { continue }
            compared += 1
            #expect(scanned == Self.foundation(key), "\(key) \(URL(string: key)!.path)")
        }
        #expect(compared > 10_000)
    }
}
