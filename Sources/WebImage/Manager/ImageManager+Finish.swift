import Foundation

extension ImageManager {
    /// Steps 7–9 of SDWebImage's flow for an image that came from the loader or the original
    /// cache: transform it, store the original and the result, and build the result.
    ///
    /// A transformer that throws fails the load with its error (SDWebImage falls back to the
    /// untransformed image, which it then caches under the transformed key).
    func finish(
        _ load: PreparedLoad, image original: Image, data: Data?, metadata: DiskCacheMetadata?,
        cacheType: ImageCacheType
    ) async throws(WebImageError) -> ImageManagerResult {
        let options = load.options
        var image = original
        if let transformer = load.transformer, !original.isAnimated || options.contains(.transformAnimatedImage) {
            try Task.checkCancellation(or: .cancelled)
            image = try Self.transform(
                original, with: transformer, key: load.originalKey, animated: options.contains(.transformAnimatedImage))
        }
        let derived = image.isTransformed || image.isThumbnail
        var stores: [CacheStore] = []
        if load.fullKey != load.originalKey {
            stores.append(originalStore(load, image: original, data: data, metadata: metadata, cacheType: cacheType))
        }
        if cacheType == .none || load.fullKey != load.originalKey {
            let passedData = derived ? nil : data
            stores.append(
                CacheStore(
                    cache: load.cache, key: load.fullKey, image: image, data: passedData, originalData: passedData,
                    metadata: metadata, cacheType: load.context.storeCacheType ?? .all, options: options,
                    context: load.context, url: load.url))
        }
        if options.contains(.waitStoreCache) {
            for store in stores { await store.run(.all, telemetry: telemetry) }
        } else {
            // Memory now, as SDWebImage: a load that starts once this one has ended must hit
            // it rather than download again. The disk (encoding, serializer, write) follows
            // off this load.
            for store in stores { await store.run(.memory, telemetry: telemetry) }
            for store in stores { store.startDisk(telemetry: telemetry) }
        }
        return ImageManagerResult(image: image, data: derived ? nil : data, cacheType: cacheType, url: load.url)
    }

    /// The original goes under the original key with `originalStoreCacheType` (default disk),
    /// minus the disk if it came from there. A thumbnail is not the original: only its data is kept.
    private func originalStore(
        _ load: PreparedLoad, image: Image, data: Data?, metadata: DiskCacheMetadata?, cacheType: ImageCacheType
    ) -> CacheStore {
        var storeType = load.context.originalStoreCacheType ?? .disk
        if cacheType == .disk {
            storeType = storeType == .all ? .memory : (storeType == .disk ? .none : storeType)
        }
        return CacheStore(
            cache: load.context.originalImageCache ?? load.cache, key: load.originalKey,
            image: image.isThumbnail ? nil : image, data: data, originalData: data, metadata: metadata,
            cacheType: storeType, options: load.options, context: load.context, url: load.url)
    }

    /// Applies `transformer`: to a still image, or frame by frame to an animation when
    /// `animated` (durations and loop count kept).
    static func transform(_ image: Image, with transformer: any ImageTransforming, key: String, animated: Bool)
        throws(WebImageError) -> Image
    {
        var result = try transformer.transformedImage(image, forKey: key, animated: animated)
        // The source's format no longer describes the pixels unless the transformer says so.
        if !transformer.preservesImageMetadata { result.format = .undefined }
        result.isTransformed = true
        return result
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `error` if the current task is cancelled.
    static func checkCancellation(or error: WebImageError) throws(WebImageError) {
        if Task.isCancelled { throw error }
    }
}
