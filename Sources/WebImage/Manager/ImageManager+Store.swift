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

        /// Writes the part of this store that `part` allows; a failure is logged, never thrown:
        /// it costs a later miss, never this load's result (as SDWebImage).
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
        /// while the write waits its turn. Bytes for an ``ImageCache`` go straight to its I/O
        /// queue: no task, and no hop back once written.
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
            Task.detached(priority: .utility) { await store.run(.disk, telemetry: telemetry) }
        }
    }
}
