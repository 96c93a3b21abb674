import Foundation

extension ImageDownloadCookieStore.State {
    /// RFC 6265 5.3, the storage model, for one parsed `Set-Cookie` line.
    mutating func insert(
        _ line: SetCookieLine, from origin: CookieOrigin, now: Date, limits: (total: Int, perDomain: Int)
    ) {
        // RFC 6265bis 5.7: only a secure origin may set a Secure cookie.
        if line.secure && !origin.isSecure { return }
        guard let (domain, hostOnly) = Self.resolveDomain(line.domain, origin: origin) else { return }
        let cookie = ImageDownloadCookie(
            name: line.name, value: line.value, domain: domain, hostOnly: hostOnly,
            path: line.path ?? origin.defaultPath, expires: Self.expiry(of: line, now: now), secure: line.secure,
            httpOnly: line.httpOnly)

        var entries = byDomain[domain] ?? []
        let existing = entries.firstIndex { $0.cookie.name == cookie.name && $0.cookie.path == cookie.path }
        // RFC 6265bis 5.7: an insecure origin must not overwrite a Secure cookie.
        if let existing, entries[existing].cookie.secure, !origin.isSecure { return }
        let access = tick()
        let created = existing.map { entries[$0].created } ?? access
        if let existing {
            entries.remove(at: existing)
            count -= 1
        }
        // An expiry in the past is how a server deletes a cookie: remove, don't store.
        if let expires = cookie.expires, expires <= now {
            byDomain[domain] = entries.isEmpty ? nil : entries
            return
        }
        entries.append(ImageDownloadCookieStore.Entry(cookie: cookie, created: created, lastAccess: access))
        count += 1
        if entries.count > limits.perDomain, let victim = Self.leastRecentlyUsed(in: entries) {
            entries.remove(at: victim)
            count -= 1
        }
        byDomain[domain] = entries
        if count > limits.total { evictLeastRecentlyUsed() }
    }

    mutating func removeExpired(now: Date) {
        for (domain, entries) in byDomain {
            let kept = entries.filter { $0.cookie.expires.map { $0 > now } ?? true }
            guard kept.count != entries.count else { continue }
            count -= entries.count - kept.count
            byDomain[domain] = kept.isEmpty ? nil : kept
        }
    }

    /// The cookie's domain and host-only flag, or nil when the `Domain` attribute must make the
    /// whole cookie be ignored.
    private static func resolveDomain(_ attribute: String?, origin: CookieOrigin) -> (String, Bool)? {
        guard let attribute else { return (origin.host, true) }
        // A single label (`com`, `localhost`) stands in for a public suffix, and an IP address
        // has no parent domains: either may only name the host itself, which makes the cookie
        // host-only (RFC 6265 5.3 step 5).
        if origin.isIPAddress || !attribute.contains(".") {
            return attribute == origin.host ? (origin.host, true) : nil
        }
        return origin.domainMatches(attribute) ? (attribute, false) : nil
    }

    /// RFC 6265 5.3 step 3: `Max-Age` wins over `Expires`; a Max-Age of zero or less expires at once.
    private static func expiry(of line: SetCookieLine, now: Date) -> Date? {
        if let maxAge = line.maxAge {
            if maxAge <= 0 { return .distantPast }
            return maxAge >= Date.distantFuture.timeIntervalSince(now) ? .distantFuture : now.addingTimeInterval(maxAge)
        }
        return line.expires
    }

    private static func leastRecentlyUsed(in entries: [ImageDownloadCookieStore.Entry]) -> Int? {
        entries.indices.min { entries[$0].lastAccess < entries[$1].lastAccess }
    }

    /// Drops the least recently used cookie of the whole store: a linear scan, which only runs
    /// when the store is over its bound.
    private mutating func evictLeastRecentlyUsed() {
        var oldest: (domain: String, index: Int, access: UInt64)?
        for (domain, entries) in byDomain {
            guard let index = Self.leastRecentlyUsed(in: entries) else { continue }
            if oldest.map({ entries[index].lastAccess < $0.access }) ?? true {
                oldest = (domain, index, entries[index].lastAccess)
            }
        }
        guard let oldest else { return }
        byDomain[oldest.domain]?.remove(at: oldest.index)
        if byDomain[oldest.domain]?.isEmpty == true { byDomain[oldest.domain] = nil }
        count -= 1
    }
}
