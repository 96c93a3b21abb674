import Foundation

extension ImageManager {
    /// One cache write a load makes (its original or its result), runnable in parts: memory now,
    /// disk now or later.
    struct CacheStore: Sendable {
        let cache: any ImageCaching
        let key: String
        /// Kept in memory, and handed to a serializer or an encoder for the disk.
        var image: Image?
        let data: Data?
        let originalData: Data?
        let metadata: DiskCacheMetadata?
        let cacheType: ImageCacheType
        let options: WebImageOptions
        let context: WebImageContext
        let url: URL

        /// The original goes under the original key with `originalStoreCacheType` (default disk),
        /// minus the cache it `cameFrom`. A thumbnail is not the original: only its data is kept.
        static func original(
            of load: PreparedLoad, image: Image, data: Data?, metadata: DiskCacheMetadata?, cameFrom: ImageCacheType
        ) -> CacheStore {
            var storeType = load.context.originalStoreCacheType ?? .disk
            if cameFrom == .disk {
                storeType = storeType == .all ? .memory : (storeType == .disk ? .none : storeType)
            }
            return CacheStore(
                cache: load.context.originalImageCache ?? load.cache, key: load.originalKey,
                image: image.isThumbnail ? nil : image, data: data, originalData: data, metadata: metadata,
                cacheType: storeType, options: load.options, context: load.context, url: load.url)
        }

        /// The result goes under the full key with `storeCacheType` (default all); `data` only
        /// when it still describes the image (not for a transformed image or a thumbnail).
        static func result(of load: PreparedLoad, image: Image, data: Data?, metadata: DiskCacheMetadata?)
            -> CacheStore
        {
            CacheStore(
                cache: load.cache, key: load.fullKey, image: image, data: data, originalData: data,
                metadata: metadata, cacheType: load.context.storeCacheType ?? .all, options: load.options,
                context: load.context, url: load.url)
        }

        /// Writes the part of this store that `part` allows; a failure is logged, never thrown.
        func run(_ part: ImageCacheType, telemetry: ManagerTelemetry) async {
            let cacheType = cacheType.restricted(to: part)
            guard cacheType != .none, image != nil || data != nil else { return }
            var data = data
            if let serializer = context.cacheSerializer, let image, cacheType.includesDisk {
                data = serializer.cacheData(for: image, originalData: originalData, url: url)
            }
            do {
                try await cache.store(
                    image, data: data, metadata: metadata, forKey: key, options: options, context: context,
                    cacheType: cacheType)
            } catch {
                telemetry.storeFailed(key: key, error: error)
            }
        }

        /// Starts the disk part without waiting for it. The decoded image is let go unless the
        /// disk needs it (a serializer, or no bytes to write), so it does not outlive the load
        /// while the write waits its turn. Bytes for an ``ImageCache`` go straight to its file
        /// threads; anything else runs in a task of its own.
        func startDisk(telemetry: ManagerTelemetry) {
            guard cacheType.includesDisk else { return }
            var store = self
            if store.context.cacheSerializer == nil, store.data != nil { store.image = nil }
            if let data = store.data, store.image == nil, let imageCache = cache as? ImageCache {
                imageCache.storeImageDataToDiskInBackground(data, forKey: key, metadata: metadata) { [key] error in
                    telemetry.storeFailed(key: key, error: error)
                }
                return
            }
            Task(priority: .utility) { await store.run(.disk, telemetry: telemetry) }
        }
    }
}
