import Foundation
import Testing

@testable import WebImage

@Suite("Cookie store: parsing, Secure, replacement and bounds")
struct CookieStoreRulesTests {
    @Test("Name, value and flags are parsed with surrounding spaces trimmed")
    func parsing() {
        let store = ImageDownloadCookieStore()
        store.set(" sid = a b=c ;  HttpOnly ; secure; Path = /p ; Unknown=x", from: "https://h.com/")
        #expect(
            store.cookies == [
                ImageDownloadCookie(
                    name: "sid", value: "a b=c", domain: "h.com", hostOnly: true, path: "/p", secure: true,
                    httpOnly: true)
            ])
        #expect(store.header("https://h.com/p/x") == "sid=a b=c")
    }

    @Test(
        "Malformed Set-Cookie lines are ignored",
        arguments: [
            "", "novalue", "=value", " =value", ";a=1", "a\r\nX-Injected: 1=2", "a=1\r\nX: y", "a=\u{0}", "a\u{7F}=1",
        ])
    func malformed(line: String) {
        let store = ImageDownloadCookieStore()
        store.set(line, "ok=1", from: "http://h.com/")
        #expect(store.cookies.map(\.name) == ["ok"])
        #expect(store.header("http://h.com/") == "ok=1")
    }

    @Test("An empty value is a cookie")
    func emptyValue() {
        let store = ImageDownloadCookieStore()
        store.set("a=", from: "http://h.com/")
        #expect(store.header("http://h.com/") == "a=")
    }

    @Test("Secure cookies are sent only over HTTPS")
    func secureOnlyOverHTTPS() {
        let store = ImageDownloadCookieStore()
        store.set("s=1; Secure", "p=2", from: "https://h.com/")
        #expect(store.header("https://h.com/") == "s=1; p=2")
        #expect(store.header("http://h.com/") == "p=2")
    }

    @Test("An HTTP response can neither set nor replace a Secure cookie")
    func insecureOriginCannotTouchSecure() {
        let store = ImageDownloadCookieStore()
        store.set("s=1; Secure", from: "http://h.com/")
        #expect(store.cookies.isEmpty)
        store.set("s=1; Secure", from: "https://h.com/")
        store.set("s=evil", "s=; Max-Age=0", from: "http://h.com/")
        #expect(store.header("https://h.com/") == "s=1")
    }

    @Test("Same name, domain and path replaces the value, keeping the original's place in the order")
    func replacement() {
        let store = ImageDownloadCookieStore()
        store.set("a=1", "b=2", from: "http://h.com/")
        store.set("a=3; HttpOnly", from: "http://h.com/")
        #expect(store.cookies.count == 2)
        #expect(store.cookies.first { $0.name == "a" }?.httpOnly == true)
        #expect(store.header("http://h.com/") == "a=3; b=2")
    }

    @Test("A different path or domain is a different cookie; names are case-sensitive")
    func distinctIdentities() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Path=/", "a=2; Path=/x", "A=3; Path=/", from: "http://www.h.com/")
        store.set("a=4; Domain=h.com; Path=/", from: "http://www.h.com/")
        #expect(store.cookies.count == 4)
        #expect(store.header("http://www.h.com/x/y") == "a=2; a=1; A=3; a=4")
    }

    @Test("Cookies of 4096 bytes are kept; larger ones and oversized attributes are ignored")
    func sizeLimits() {
        let store = ImageDownloadCookieStore()
        store.set("a=\(String(repeating: "v", count: 4095))", from: "http://h.com/")
        store.set("b=\(String(repeating: "v", count: 4096))", from: "http://h.com/")
        store.set("c=1; Path=/\(String(repeating: "p", count: 1100))", from: "http://h.com/d/e")
        #expect(store.cookies.map(\.name) == ["a", "c"])
        #expect(store.cookies.last?.path == "/d")
    }

    @Test("At most 50 cookies per domain: the least recently used go first, reading counts as use")
    func perDomainBound() {
        let store = ImageDownloadCookieStore()
        store.set("c0=1; Path=/zero", from: "http://h.com/")
        for index in 1..<50 { store.set("c\(index)=1; Path=/other", from: "http://h.com/") }
        store.set("x=1", from: "http://other.com/")
        #expect(store.header("http://h.com/zero") == "c0=1")
        store.set("n1=1", "n2=1", from: "http://h.com/")
        let names = Set(store.cookies.filter { $0.domain == "h.com" }.map(\.name))
        #expect(names.count == 50)
        #expect(names.isSuperset(of: ["c0", "c3", "c49", "n1", "n2"]))
        #expect(names.isDisjoint(with: ["c1", "c2"]))
        #expect(store.cookies.count == 51)
    }

    @Test("At most 3000 cookies in all: the least recently used go first")
    func totalBound() {
        let store = ImageDownloadCookieStore()
        for domain in 0..<61 {
            let lines = (0..<50).map { "c\($0)=1" }
            store.store(setCookieHeaders: lines, for: cookieURL("http://d\(domain).com/"), now: cookieNow)
        }
        #expect(store.cookies.count == 3000)
        #expect(store.header("http://d0.com/") == nil)
        #expect(store.header("http://d60.com/")?.hasPrefix("c0=1; c1=1") == true)
        #expect(store.cookies.filter { $0.domain == "d1.com" }.count == 50)
    }

    @Test("Custom bounds apply, and bounds below 1 are rejected")
    func customBounds() throws {
        let store = try ImageDownloadCookieStore(maximumCookieCount: 3, maximumCookiesPerDomain: 2)
        store.set("a=1", "b=2", "c=3", from: "http://h.com/")
        store.set("d=4", "e=5", from: "http://g.com/")
        #expect(store.cookies.map(\.name) == ["c", "d", "e"])
        #expect(throws: WebImageError.self) {
            try ImageDownloadCookieStore(maximumCookieCount: 0, maximumCookiesPerDomain: 1)
        }
        #expect(throws: WebImageError.self) {
            try ImageDownloadCookieStore(maximumCookieCount: 1, maximumCookiesPerDomain: -1)
        }
    }

    @Test("An overlong Set-Cookie line is ignored without being parsed")
    func overlongLine() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; \(String(repeating: "x=y; ", count: 2000))", from: "http://h.com/")
        #expect(store.cookies.isEmpty)
    }

    @Test("removeAll forgets every cookie")
    func removeAll() {
        let store = ImageDownloadCookieStore()
        store.set("a=1", "b=2", from: "http://h.com/")
        store.removeAll()
        #expect(store.cookies.isEmpty)
        #expect(store.header("http://h.com/") == nil)
        store.set("c=3", from: "http://h.com/")
        #expect(store.header("http://h.com/") == "c=3")
    }

    @Test("Concurrent stores and lookups keep the store consistent")
    func concurrentUse() async {
        let store = ImageDownloadCookieStore()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<100 {
                        store.set("t\(task)i\(index)=1", from: "http://h\(task).com/")
                        _ = store.header("http://h\(task).com/")
                    }
                }
            }
        }
        #expect(store.cookies.count == 8 * 50)
    }
}
