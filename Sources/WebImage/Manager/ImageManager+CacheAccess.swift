import Foundation

extension ImageManager {
    /// Whether the manager's cache holds an image for `url` (memory first, then disk), under
    /// ``cacheKey(for:)`` (SDWebImage 4's `cachedImageExistsForURL:`). False for nil.
    public func cachedImageExists(for url: URL?) async -> Bool {
        guard let url else { return false }
        return await imageCache.containsImage(forKey: cacheKey(for: url), cacheType: .all) != .none
    }

    /// Whether the manager's disk cache holds an image for `url` (SDWebImage 4's
    /// `diskImageExistsForURL:`). False for nil.
    public func diskImageExists(for url: URL?) async -> Bool {
        guard let url else { return false }
        return await imageCache.containsImage(forKey: cacheKey(for: url), cacheType: .disk) != .none
    }

    /// Stores `image` in memory and on disk under ``cacheKey(for:)`` (SDWebImage 4's
    /// `saveImageToCache:forURL:`), encoded as the cache encodes images stored without data.
    /// Nil image or URL: nothing happens. Throws the cache's error (encoding or writing).
    public func saveImageToCache(_ image: Image?, for url: URL?) async throws(WebImageError) {
        guard let image, let url else { return }
        try await imageCache.store(
            image, data: nil, metadata: nil, forKey: cacheKey(for: url), options: [], context: nil, cacheType: .all)
    }
}
