import Foundation

extension ImageCache {
    /// Removes `key` from memory and/or disk, as `cacheType` allows. The disk part runs on the
    /// file threads.
    public func removeImage(forKey key: String, cacheType: ImageCacheType = .all) async {
        guard !key.isEmpty else { return }
        if cacheType.includesMemory {
            memoryCache.removeImage(forKey: key)
        }
        if cacheType.includesDisk {
            let diskCache = self.diskCache
            await io.run { diskCache.removeData(forKey: key) }
        }
    }

    /// Where `key` is cached: `.memory` if in memory (and `cacheType` looks there), else `.disk`
    /// if on disk, else `.none`.
    public func containsImage(forKey key: String, cacheType: ImageCacheType = .all) async -> ImageCacheType {
        guard !key.isEmpty else { return .none }
        if cacheType.includesMemory, memoryCache.image(forKey: key) != nil {
            return .memory
        }
        guard cacheType.includesDisk else { return .none }
        let diskCache = self.diskCache
        return await io.run { diskCache.containsData(forKey: key) } ? .disk : .none
    }

    /// Empties memory and/or disk; disk failures are ignored here (use ``clearDisk()`` to see them).
    public func clear(cacheType: ImageCacheType) async {
        if cacheType.includesMemory { clearMemory() }
        if cacheType.includesDisk { try? await clearDisk() }
    }

    /// Deletes every disk entry; memory is untouched.
    /// Throws ``WebImageError/Code/diskCacheFailure`` if the directory cannot be emptied.
    public func clearDisk() async throws(WebImageError) {
        let diskCache = self.diskCache
        try await io.run { () throws(WebImageError) in try diskCache.removeAllData() }
    }

    /// Deletes entries past ``ImageCacheConfig/maxDiskAge``, then the oldest until under half
    /// of ``ImageCacheConfig/maxDiskSize`` (`deleteOldFiles`).
    public func removeExpiredData() async throws(WebImageError) {
        let diskCache = self.diskCache
        try await io.run { () throws(WebImageError) in try diskCache.removeExpiredData() }
    }

    /// Bytes the disk cache takes.
    public func totalDiskSize() async -> Int {
        let diskCache = self.diskCache
        return await io.run { diskCache.totalSize }
    }

    /// Entries in the disk cache.
    public func totalDiskCount() async -> Int {
        let diskCache = self.diskCache
        return await io.run { diskCache.totalCount }
    }
}
