import Foundation

@testable import WebImage

/// A fixed clock for cookie tests: 2023-11-14 22:13:20 UTC.
let cookieNow = Date(timeIntervalSince1970: 1_700_000_000)

func cookieURL(_ string: String) -> URL {
    URL(string: string)!
}

extension ImageDownloadCookieStore {
    /// Stores `lines` as the response of `url` at ``cookieNow``.
    func set(_ lines: String..., from url: String, now: Date = cookieNow) {
        store(setCookieHeaders: lines, for: cookieURL(url), now: now)
    }

    /// The `Cookie` header for a request to `url` at ``cookieNow``.
    func header(_ url: String, now: Date = cookieNow) -> String? {
        cookieHeader(for: cookieURL(url), now: now)
    }
}
