import Foundation
import Testing

@testable import WebImage

@Suite("Cookie store: Path defaults, matching and order")
struct CookieStorePathTests {
    @Test(
        "Without Path the cookie takes the directory of the URL's path",
        arguments: [
            ("http://h.com", "/"), ("http://h.com/", "/"), ("http://h.com/a.png", "/"), ("http://h.com/a/", "/a"),
            ("http://h.com/a/b/c.png", "/a/b"), ("http://h.com/a/b/c.png?x=/y/z", "/a/b"),
        ])
    func defaultPath(url: String, expected: String) {
        let store = ImageDownloadCookieStore()
        store.set("a=1", from: url)
        #expect(store.cookies.map(\.path) == [expected])
    }

    @Test("A Path that is empty or does not start with a slash falls back to the default path")
    func invalidPathAttribute() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Path=", "b=2; Path=images", from: "http://h.com/x/y.png")
        #expect(store.cookies.map(\.path) == ["/x", "/x"])
    }

    @Test("Path matches itself, sub-paths at a slash, and nothing else")
    func pathMatching() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Path=/img", from: "http://h.com/")
        #expect(store.header("http://h.com/img") == "a=1")
        #expect(store.header("http://h.com/img/") == "a=1")
        #expect(store.header("http://h.com/img/a/b.png") == "a=1")
        #expect(store.header("http://h.com/images/b.png") == nil)
        #expect(store.header("http://h.com/im") == nil)
        #expect(store.header("http://h.com/") == nil)
        #expect(store.header("http://h.com/IMG/b.png") == nil)
    }

    @Test("A Path ending in a slash matches every path under it")
    func trailingSlashPath() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Path=/img/", from: "http://h.com/")
        #expect(store.header("http://h.com/img/x.png") == "a=1")
        #expect(store.header("http://h.com/img") == nil)
    }

    @Test("Cookies with longer paths come first, then older ones")
    func order() {
        let store = ImageDownloadCookieStore()
        store.set("root1=1; Path=/", from: "http://h.com/")
        store.set("deep=2; Path=/a/b", from: "http://h.com/")
        store.set("mid=3; Path=/a", from: "http://h.com/")
        store.set("root2=4; Path=/", from: "http://h.com/")
        #expect(store.header("http://h.com/a/b/c.png") == "deep=2; mid=3; root1=1; root2=4")
        #expect(store.header("http://h.com/a/x.png") == "mid=3; root1=1; root2=4")
    }

    @Test("Host-only and domain cookies mix in one header, most specific path first")
    func mixedDomains() {
        let store = ImageDownloadCookieStore()
        store.set("d=1; Domain=example.com; Path=/", from: "http://img.example.com/")
        store.set("h=2; Path=/pics", from: "http://img.example.com/")
        #expect(store.header("http://img.example.com/pics/1.png") == "h=2; d=1")
        #expect(store.header("http://www.example.com/pics/1.png") == "d=1")
    }
}
