import Foundation
import Testing

@testable import WebImage

@Suite("Cookie store: Expires and Max-Age")
struct CookieStoreExpiryTests {
    let url = "http://h.com/"

    @Test("Without Expires or Max-Age a cookie is a session cookie that never expires in the store")
    func sessionCookie() {
        let store = ImageDownloadCookieStore()
        store.set("a=1", from: url)
        #expect(store.cookies.first?.expires == nil)
        #expect(store.header(url, now: .distantFuture) == "a=1")
    }

    @Test("Expires (an HTTP date in any of its three forms) sets the expiry")
    func expires() {
        let store = ImageDownloadCookieStore()
        store.set(
            "a=1; Expires=Wed, 15 Nov 2023 22:13:20 GMT", "b=2; expires=Wednesday, 15-Nov-23 22:13:20 GMT",
            "c=3; EXPIRES=Wed Nov 15 22:13:20 2023", "d=4; Expires=Wed, 15-Nov-2023 22:13:20 GMT", from: url)
        let expected = cookieNow.addingTimeInterval(86_400)
        #expect(store.cookies.map(\.expires) == [expected, expected, expected, expected])
        #expect(store.header(url, now: expected.addingTimeInterval(-1)) == "a=1; b=2; c=3; d=4")
        #expect(store.header(url, now: expected) == nil)
        #expect(store.cookies.isEmpty)
    }

    @Test("An unparsable Expires is ignored: the cookie is a session cookie")
    func badExpires() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Expires=tomorrow", "b=2; Expires=", from: url)
        #expect(store.cookies.map(\.expires) == [nil, nil])
    }

    @Test("Max-Age sets the expiry relative to now")
    func maxAge() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Max-Age=60", from: url)
        #expect(store.cookies.first?.expires == cookieNow.addingTimeInterval(60))
        #expect(store.header(url, now: cookieNow.addingTimeInterval(59)) == "a=1")
        #expect(store.header(url, now: cookieNow.addingTimeInterval(60)) == nil)
    }

    @Test("Max-Age wins over Expires, whichever comes first")
    func maxAgeWins() {
        let store = ImageDownloadCookieStore()
        store.set(
            "a=1; Expires=Wed, 15 Nov 2023 22:13:20 GMT; Max-Age=60",
            "b=2; Max-Age=60; Expires=Wed, 15 Nov 2023 22:13:20 GMT", from: url)
        #expect(store.cookies.map(\.expires) == [cookieNow.addingTimeInterval(60), cookieNow.addingTimeInterval(60)])
    }

    @Test("A malformed Max-Age is ignored and Expires applies")
    func malformedMaxAge() {
        let store = ImageDownloadCookieStore()
        let tomorrow = "Wed, 15 Nov 2023 22:13:20 GMT"
        store.set(
            "a=1; Max-Age=1h; Expires=\(tomorrow)", "b=2; Max-Age=+5", "c=3; Max-Age=", "d=4; Max-Age=-", from: url)
        #expect(store.cookies.map(\.expires) == [cookieNow.addingTimeInterval(86_400), nil, nil, nil])
    }

    @Test("Max-Age of zero or less deletes the stored cookie and stores nothing", arguments: ["0", "-1", "-99999"])
    func maxAgeDeletes(value: String) {
        let store = ImageDownloadCookieStore()
        store.set("a=1", "b=2", from: url)
        store.set("a=gone; Max-Age=\(value); Expires=Wed, 15 Nov 2023 22:13:20 GMT", from: url)
        #expect(store.cookies.map(\.name) == ["b"])
        #expect(store.header(url) == "b=2")
    }

    @Test("An Expires in the past deletes the stored cookie")
    func pastExpiresDeletes() {
        let store = ImageDownloadCookieStore()
        store.set("a=1", from: url)
        store.set("a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT", from: url)
        #expect(store.cookies.isEmpty)
    }

    @Test("A huge Max-Age saturates at the far future instead of overflowing")
    func hugeMaxAge() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Max-Age=\(String(repeating: "9", count: 400))", "b=2; Max-Age=99999999999999999999", from: url)
        #expect(store.cookies.map(\.expires) == [.distantFuture, .distantFuture])
        #expect(store.header(url, now: cookieNow.addingTimeInterval(1e9)) == "a=1; b=2")
    }

    @Test("The last of repeated attributes wins")
    func lastAttributeWins() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Max-Age=10; Max-Age=20; Path=/x; Path=/y", from: url)
        #expect(store.cookies.first?.expires == cookieNow.addingTimeInterval(20))
        #expect(store.cookies.first?.path == "/y")
    }

    @Test("Expired cookies are dropped when later cookies are stored")
    func purgeOnStore() {
        let store = ImageDownloadCookieStore()
        store.set("a=1; Max-Age=10", "b=2", from: url)
        store.set("c=3", from: url, now: cookieNow.addingTimeInterval(11))
        #expect(store.cookies.map(\.name) == ["b", "c"])
    }
}
