#if Server
    import Foundation
    import WebImage

    /// How an image response's status, `Cache-Control` and `Vary` are made, in imgproxy's order:
    /// a fallback image's TTL and the URL's `expires` first, then (with
    /// ``ServiceConfiguration/passesSourceCacheControl``) the source's own `Cache-Control` or
    /// `Expires`, then ``ServiceConfiguration/timeToLive``, and `no-cache` when that is 0.
    struct ResponsePolicy: Sendable {
        /// 200, or the fallback image's status.
        var status = 200
        /// The service's `max-age`, in seconds.
        var timeToLive: Int
        /// Send the source's `Cache-Control` (or its `Expires` as a `max-age`) when nothing above it
        /// sets one.
        var passesSourceCaching = false
        /// When the answer is the fallback image: its `max-age` at most (0 or nil: no cap of its own).
        var fallbackTimeToLive: Int?
        /// Request headers the answer depended on.
        var vary: [String] = []
        /// The time `expires` and the source's freshness are measured from.
        var now = Date()

        /// The most seconds a `max-age` says here (about 68 years): a source's freshness far in
        /// the future must not overflow an integer.
        private static let longestAge = Double(Int32.max)

        /// The answer when the source said the client's copy is current: 304 with the caching
        /// headers, nothing processed.
        func notModified(expires: Int?) -> ServiceResponse {
            var headers = [(name: "Cache-Control", value: cacheControl(expires: expires, source: SourceCaching()))]
            if !vary.isEmpty { headers.append(("Vary", vary.joined(separator: ", "))) }
            return ServiceResponse(status: 304, headers: headers, body: Data())
        }

        /// The `Cache-Control` value for a result made with `expires` (the URL's, Unix seconds) from
        /// a source that said `source`.
        func cacheControl(expires: Int?, source: SourceCaching) -> String {
            var maxAge = -1
            if let fallback = fallbackTimeToLive, fallback > 0 { maxAge = fallback }
            if let expires, expires > 0 {
                let left = Int(clamping: max(0, min(Double(expires) - now.timeIntervalSince1970, Self.longestAge)))
                if maxAge < 0 || left < maxAge { maxAge = min(timeToLive, left) }
            }
            if maxAge > 0 { return "public, max-age=\(maxAge)" }
            if passesSourceCaching {
                if let value = source.cacheControl?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
                    !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
                {
                    return value
                }
                if source.cacheControl == nil, let expiration = source.expiration {
                    let left = Int(clamping: max(0, min(expiration.timeIntervalSince(now), Self.longestAge)))
                    if left > 0 { return "public, max-age=\(left)" }
                }
            }
            return timeToLive > 0 ? "public, max-age=\(timeToLive)" : "no-cache"
        }
    }
#endif
