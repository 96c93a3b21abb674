import Foundation

/// Turns a URL into the key its image is cached under (SDWebImage's `SDWebImageCacheKeyFilter`).
///
/// Use it for URLs whose volatile parts (signatures, expiry times, tracking parameters) must not
/// make every load a cache miss; the URL that is fetched stays the original.
public protocol ImageCacheKeyFiltering: Sendable {
    /// The cache key for `url`; nil means "use the URL's absolute string".
    func cacheKey(for url: URL) -> String?
}

/// A cache-key filter made of a closure, with ready-made filters for query parameters.
public struct ImageCacheKeyFilter: ImageCacheKeyFiltering {
    private let body: @Sendable (URL) -> String?

    /// A filter that runs `body`.
    public init(_ body: @escaping @Sendable (URL) -> String?) {
        self.body = body
    }

    public func cacheKey(for url: URL) -> String? { body(url) }

    /// Keys without the named query parameters (compared case-sensitively), for example
    /// `["X-Amz-Signature", "X-Amz-Expires"]` for presigned URLs. The other parameters keep their order.
    public static func removingQueryItems(named names: Set<String>) -> ImageCacheKeyFilter {
        ImageCacheKeyFilter { url in
            filteredKey(url) { !names.contains($0.name) }
        }
    }

    /// Keys with only the named query parameters, in their original order.
    public static func keepingQueryItems(named names: Set<String>) -> ImageCacheKeyFilter {
        ImageCacheKeyFilter { url in
            filteredKey(url) { names.contains($0.name) }
        }
    }

    private static func filteredKey(_ url: URL, keeping isKept: (URLQueryItem) -> Bool) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let items = components.queryItems
        else { return nil }
        let kept = items.filter(isKept)
        components.queryItems = kept.isEmpty ? nil : kept
        return components.string
    }
}
