import Foundation

extension DiskCacheMetadata {
    /// Metadata for a response with these headers (names case-insensitive): `Content-Type`, the
    /// validators `ETag` and `Last-Modified`, and freshness per RFC 9111 — `Cache-Control: max-age`
    /// (or `s-maxage`, which a shared cache such as a server's prefers), else `Expires` (relative
    /// to `Date` when present, so clock skew between server and client does not matter), minus
    /// the response's `Age`. `no-cache` and `no-store` make the entry stale at once: it may still
    /// be stored and revalidated, but is never considered fresh.
    public init(httpHeaders: [String: String], storeDate: Date = Date()) {
        var lowered: [String: String] = [:]
        for (name, value) in httpHeaders { lowered[name.lowercased()] = value }
        self.init(
            contentType: lowered["content-type"], etag: lowered["etag"], lastModified: lowered["last-modified"],
            storeDate: storeDate,
            expirationDate: Self.expirationDate(headers: lowered, storeDate: storeDate),
            cacheControl: lowered["cache-control"])
    }

    /// Whether the entry is still fresh at `date` (nil expiration means no HTTP freshness: never fresh).
    public func isFresh(at date: Date = Date()) -> Bool {
        guard let expirationDate else { return false }
        return date < expirationDate
    }

    private static func expirationDate(headers: [String: String], storeDate: Date) -> Date? {
        let age = headers["age"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        if let cacheControl = headers["cache-control"] {
            let directives = parseCacheControl(cacheControl)
            if directives["no-store"] != nil || directives["no-cache"] != nil { return storeDate }
            if let seconds = (directives["s-maxage"] ?? directives["max-age"]).flatMap({ $0.flatMap(Double.init) }),
                seconds.isFinite
            {
                return storeDate.addingTimeInterval(max(0, seconds - max(0, age)))
            }
        }
        guard let expiresText = headers["expires"] else { return nil }
        // An invalid Expires (such as "0") means already expired (RFC 9111 5.3).
        guard let expires = HTTPDate.parse(expiresText) else { return storeDate }
        let serverNow = headers["date"].flatMap(HTTPDate.parse) ?? storeDate
        let lifetime = expires.timeIntervalSince(serverNow) - max(0, age)
        return storeDate.addingTimeInterval(max(0, lifetime))
    }

    /// `Cache-Control` directives by lowercase name; values unquoted, nil for bare directives.
    static func parseCacheControl(_ value: String) -> [String: String?] {
        var directives: [String: String?] = [:]
        for part in value.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { continue }
            let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            directives[name] = argument
        }
        return directives
    }
}
