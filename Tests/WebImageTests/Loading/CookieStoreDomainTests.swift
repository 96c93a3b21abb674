import Foundation
import Testing

@testable import WebImage

@Suite("Cookie store: Domain and host matching")
struct CookieStoreDomainTests {
    @Test("Without Domain a cookie is host-only: not sent to subdomains or the parent")
    func hostOnlyByDefault() {
        let store = ImageDownloadCookieStore()
        store.set("a=1", from: "http://img.example.com/")
        #expect(store.cookies.map(\.hostOnly) == [true])
        #expect(store.cookies.map(\.domain) == ["img.example.com"])
        #expect(store.header("http://img.example.com/x.png") == "a=1")
        #expect(store.header("http://IMG.Example.COM/x.png") == "a=1")
        #expect(store.header("http://cdn.img.example.com/x.png") == nil)
        #expect(store.header("http://example.com/x.png") == nil)
    }

    @Test("Domain sends the cookie to the domain and its subdomains, not to look-alikes")
    func domainCookie() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Domain=.Example.com", from: "http://img.example.com/")
        #expect(store.cookies.first?.domain == "example.com")
        #expect(store.cookies.first?.hostOnly == false)
        #expect(store.header("http://example.com/") == "a=1")
        #expect(store.header("http://img.example.com/") == "a=1")
        #expect(store.header("http://a.b.example.com/") == "a=1")
        #expect(store.header("http://badexample.com/") == nil)
        #expect(store.header("http://example.com.evil.net/") == nil)
    }

    @Test("A Domain equal to the host is a domain cookie too")
    func domainEqualToHost() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Domain=example.com", from: "http://example.com/")
        #expect(store.cookies.first?.hostOnly == false)
        #expect(store.header("http://www.example.com/") == "a=1")
    }

    @Test(
        "A Domain the host does not domain-match rejects the cookie",
        arguments: ["other.com", "sub.img.example.com", "ample.com", "xample.com", "img.example.com.", "..com"])
    func foreignDomainRejected(domain: String) {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Domain=\(domain)", from: "http://img.example.com/")
        #expect(store.cookies.isEmpty)
        #expect(store.header("http://img.example.com/") == nil)
    }

    @Test("A single-label Domain such as com is rejected like a public suffix")
    func singleLabelDomainRejected() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Domain=com", "b=2; Domain=.com", from: "http://example.com/")
        #expect(store.cookies.isEmpty)
        #expect(store.header("http://other.com/") == nil)
    }

    @Test("A single-label Domain that is the host itself gives a host-only cookie")
    func singleLabelHost() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Domain=localhost", from: "http://localhost:8080/")
        #expect(store.cookies.map(\.hostOnly) == [true])
        #expect(store.header("http://localhost:9090/x") == "a=1")
    }

    @Test("An empty Domain is treated as absent")
    func emptyDomain() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Domain=", "b=2; Domain=.", from: "http://img.example.com/")
        #expect(store.cookies.map(\.hostOnly) == [true, true])
        #expect(store.header("http://img.example.com/") == "a=1; b=2")
    }

    @Test("127.0.0.1 gets host-only cookies, with or without its own address as Domain")
    func ipv4Host() {
        let store = ImageDownloadCookieStore()
        store.set("a=1", "b=2; Domain=127.0.0.1", from: "http://127.0.0.1:8080/")
        #expect(store.cookies.map(\.hostOnly) == [true, true])
        #expect(store.cookies.map(\.domain) == ["127.0.0.1", "127.0.0.1"])
        #expect(store.header("http://127.0.0.1:8080/image.png") == "a=1; b=2")
        #expect(store.header("http://127.0.0.2:8080/image.png") == nil)
    }

    @Test("An IP host cannot set a cookie for a parent 'domain' of its address")
    func ipv4ParentRejected() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Domain=0.0.1", "b=2; Domain=0.1", from: "http://127.0.0.1/")
        #expect(store.cookies.isEmpty)
        store.set("c=3", from: "http://10.0.0.1/")
        #expect(store.header("http://0.0.1/") == nil)
        #expect(store.header("http://1.10.0.0.1/") == nil)
    }

    @Test("IPv6 literal hosts work and are host-only")
    func ipv6Host() {
        let store = ImageDownloadCookieStore()
        store.set("a=1", from: "http://[::1]:8080/")
        #expect(store.cookies.map(\.domain) == ["::1"])
        #expect(store.header("http://[::1]:9000/") == "a=1")
        #expect(store.header("http://[::2]:9000/") == nil)
    }

    @Test("URLs that cannot carry cookies store and send nothing")
    func nonHTTPURLs() {
        let store = ImageDownloadCookieStore()
        store.set("a=1", from: "file:///tmp/x.png")
        store.set("a=1", from: "ftp://example.com/x.png")
        #expect(store.cookies.isEmpty)
        store.set("a=1", from: "http://example.com/")
        #expect(store.header("ftp://example.com/") == nil)
        #expect(store.header("file:///") == nil)
    }
}
