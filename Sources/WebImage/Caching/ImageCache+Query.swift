import Foundation

extension ImageCache {
    /// Looks for `key` in memory, then on disk, as `cacheType` allows (`queryCacheOperationForKey`).
    ///
    /// - A memory hit is found synchronously on the caller, with no hop to another executor.
    ///   With ``WebImageOptions/decodeFirstFrameOnly`` an animation comes back as its first
    ///   frame; with ``WebImageOptions/queryMemoryData`` the bytes are read from disk too.
    /// - The disk is read and decoded on the cache's I/O queue; concurrent queries for the same
    ///   key and decode options share that work. Bytes that fail to decode are removed and the
    ///   query misses.
    /// - When the context asks for a thumbnail of a full-size key, the thumbnail is looked up
    ///   and kept in memory under the thumbnail key (``CacheKeys/thumbnailed(_:size:preserveAspectRatio:)``),
    ///   and a thumbnail result carries no data. A disk hit is copied to memory only if the
    ///   context's `storeCacheType` (default `.all`) includes memory.
    ///
    /// An empty key or a `cacheType` of `.none` misses. Throws ``WebImageError/cancelled`` if
    /// the task is cancelled while the disk is read.
    nonisolated(nonsending) public func queryImage(
        forKey key: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        cacheType: ImageCacheType = .all
    ) async throws -> ImageCacheQueryResult {
        guard !key.isEmpty, cacheType != .none else { return .miss }
        if Task.isCancelled { throw WebImageError.cancelled }
        let memoryKey = Self.memoryKey(forKey: key, context: context)
        if cacheType != .disk, let image = memoryHit(forKey: memoryKey, options: options) {
            // As SDWebImage: a memory-only query never reads the disk, even for queryMemoryData.
            guard options.contains(.queryMemoryData), cacheType != .memory else {
                return ImageCacheQueryResult(image: image, cacheType: .memory)
            }
            let diskCache = self.diskCache
            let entry = await offCaller { diskCache.entry(forKey: key) }
            if Task.isCancelled { throw WebImageError.cancelled }
            return ImageCacheQueryResult(
                image: image, data: image.isThumbnail ? nil : entry?.data, cacheType: .memory, metadata: entry?.metadata
            )
        }
        guard cacheType.includesDisk else { return .miss }
        let decodeOptions = ImageDecodeOptions(context: context, options: options, cacheKey: key)
        let load = try await sharedDiskLoad(forKey: key, options: decodeOptions, coder: context?.imageCoder)
        guard let image = load.image else { return .miss }
        if (context?.storeCacheType ?? .all).includesMemory {
            storeImageToMemory(image, forKey: memoryKey)
        }
        return ImageCacheQueryResult(
            image: image, data: image.isThumbnail ? nil : load.data, cacheType: .disk, metadata: load.metadata)
    }

    /// The memory hit for `memoryKey`, shaped by the options.
    func memoryHit(forKey memoryKey: String, options: WebImageOptions) -> Image? {
        guard let image = memoryCache.image(forKey: memoryKey) else { return nil }
        return options.contains(.decodeFirstFrameOnly) ? Self.firstFrame(of: image) : image
    }
}
