import Foundation

/// An in-memory cookie jar for the downloader's handle-cookies option, following RFC 6265's
/// storage and retrieval models.
///
/// - `Domain` makes a cookie go to subdomains too; without it the cookie is host-only. A
///   `Domain` the URL's host does not domain-match is rejected, and so is a single-label one such
///   as `com` (there is no public-suffix list here, so multi-label suffixes like `co.uk` are not
///   recognised). IP-address hosts only ever get host-only cookies.
/// - `Path` scopes a cookie to a path prefix; without it, the directory of the URL's path.
/// - `Max-Age` wins over `Expires`; zero or less deletes the cookie, as does a past `Expires`.
/// - `Secure` cookies are sent only over HTTPS, and (as RFC 6265bis requires) an HTTP response
///   can neither set one nor replace one.
/// - A cookie with the same name, domain and path replaces the stored one.
///
/// The store is bounded so a hostile server cannot grow it without limit: at most
/// ``maximumCookieCount`` cookies, ``maximumCookiesPerDomain`` per domain (the least recently
/// used go first), and 4096 bytes of name and value per cookie (larger ones are ignored).
public final class ImageDownloadCookieStore: Sendable {
    public static let defaultMaximumCookieCount = 3000
    public static let defaultMaximumCookiesPerDomain = 50

    public let maximumCookieCount: Int
    public let maximumCookiesPerDomain: Int

    struct Entry {
        var cookie: ImageDownloadCookie
        /// Ticks of the store's clock, not dates: they order cookies set within the same instant.
        var created: UInt64
        var lastAccess: UInt64
    }

    struct State {
        var byDomain: [String: [Entry]] = [:]
        var count = 0
        var clock: UInt64 = 0

        mutating func tick() -> UInt64 {
            clock += 1
            return clock
        }
    }

    let state = Locked(State())

    /// A store with the default bounds.
    public init() {
        maximumCookieCount = Self.defaultMaximumCookieCount
        maximumCookiesPerDomain = Self.defaultMaximumCookiesPerDomain
    }

    /// A store with other bounds; each must be at least 1.
    public init(maximumCookieCount: Int, maximumCookiesPerDomain: Int) throws(WebImageError) {
        guard maximumCookieCount >= 1, maximumCookiesPerDomain >= 1 else {
            throw .invalidArgument(
                "cookie store bounds must be at least 1 (got \(maximumCookieCount) in all, "
                    + "\(maximumCookiesPerDomain) per domain)")
        }
        self.maximumCookieCount = maximumCookieCount
        self.maximumCookiesPerDomain = maximumCookiesPerDomain
    }

    /// Stores the cookies of a response from `url`, given its `Set-Cookie` header values (one
    /// cookie each). Malformed lines and cookies the rules reject are ignored; a URL that is not
    /// HTTP(S) or has no host stores nothing.
    public func store(setCookieHeaders: [String], for url: URL, now: Date = Date()) {
        guard let origin = CookieOrigin(url), !setCookieHeaders.isEmpty else { return }
        let lines = setCookieHeaders.compactMap(SetCookieLine.init)
        state.withLock { state in
            state.removeExpired(now: now)
            for line in lines {
                state.insert(line, from: origin, now: now, limits: (maximumCookieCount, maximumCookiesPerDomain))
            }
        }
    }

    /// The `Cookie` header value for a request to `url` — `name=value` pairs joined by `; `,
    /// longest path first, then oldest first — or nil when no cookie applies.
    public func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        guard let origin = CookieOrigin(url) else { return nil }
        let selected: [Entry] = state.withLock { state in
            let access = state.tick()
            var selected: [Entry] = []
            for domain in origin.candidateDomains {
                guard var entries = state.byDomain[domain] else { continue }
                let before = entries.count
                entries.removeAll { $0.cookie.expires.map { $0 <= now } ?? false }
                for index in entries.indices {
                    let cookie = entries[index].cookie
                    guard cookie.hostOnly ? domain == origin.host : origin.domainMatches(domain),
                        origin.pathMatches(cookie.path), !cookie.secure || origin.isSecure
                    else { continue }
                    entries[index].lastAccess = access
                    selected.append(entries[index])
                }
                state.count -= before - entries.count
                state.byDomain[domain] = entries.isEmpty ? nil : entries
            }
            return selected
        }
        guard !selected.isEmpty else { return nil }
        return
            selected
            .sorted { ($1.cookie.path.utf8.count, $0.created) < ($0.cookie.path.utf8.count, $1.created) }
            .map { "\($0.cookie.name)=\($0.cookie.value)" }
            .joined(separator: "; ")
    }

    /// Forgets every cookie.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Every stored cookie, oldest first. Expired cookies may still be listed until the next
    /// ``store(setCookieHeaders:for:now:)``, which drops them.
    public var cookies: [ImageDownloadCookie] {
        state.withLock { state in
            state.byDomain.values.joined().sorted { $0.created < $1.created }.map(\.cookie)
        }
    }
}
