import Foundation

/// What a cache query found.
public struct ImageCacheQueryResult: Sendable {
    /// The decoded image, or nil on a miss.
    public var image: Image?
    /// The encoded bytes, when they were read (disk hits, and memory hits with queryMemoryData).
    public var data: Data?
    /// Where the image came from; `.none` on a miss.
    public var cacheType: ImageCacheType
    /// The disk entry's metadata (validators, freshness), when the disk was read.
    public var metadata: DiskCacheMetadata?

    public init(
        image: Image? = nil, data: Data? = nil, cacheType: ImageCacheType = .none, metadata: DiskCacheMetadata? = nil
    ) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.metadata = metadata
    }

    /// A miss.
    public static let miss = ImageCacheQueryResult()
}

/// An image cache the manager can use (SDWebImage's `SDImageCache` protocol). ``ImageCache`` is
/// the default; ``ImageCachesManager`` chains several.
public protocol ImageCaching: Sendable {
    /// Looks in memory, then on disk (as `cacheType` allows), decoding with the options and context.
    /// Throws ``WebImageError/cancelled`` if the task is cancelled; a miss is not an error.
    ///
    /// Runs on the caller's executor (`nonisolated(nonsending)`), so that a memory hit returns
    /// without hopping to another executor, even through `any ImageCaching`.
    nonisolated(nonsending) func queryImage(
        forKey key: String, options: WebImageOptions, context: WebImageContext?, cacheType: ImageCacheType
    ) async throws(WebImageError) -> ImageCacheQueryResult
    /// Stores the image and/or data (encoding the image when data is missing and disk is asked for).
    func store(
        _ image: Image?, data: Data?, metadata: DiskCacheMetadata?, forKey key: String, options: WebImageOptions,
        context: WebImageContext?, cacheType: ImageCacheType
    ) async throws(WebImageError)
    func removeImage(forKey key: String, cacheType: ImageCacheType) async
    /// Where an entry for `key` exists: memory first, then disk; `.none` if nowhere.
    func containsImage(forKey key: String, cacheType: ImageCacheType) async -> ImageCacheType
    func clear(cacheType: ImageCacheType) async
}
