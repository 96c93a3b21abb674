extension ImageCache {
    /// The image in memory for `key`, or nil. Synchronous and cheap: no I/O, no decode.
    public func imageFromMemoryCache(forKey key: String) -> Image? {
        key.isEmpty ? nil : memoryCache.image(forKey: key)
    }

    /// Keeps `image` in memory under `key` at its ``Image/memoryCost`` (nothing when the config
    /// turns memory caching off or the key is empty).
    public func storeImageToMemory(_ image: Image, forKey key: String) {
        guard config.shouldCacheImagesInMemory, !key.isEmpty else { return }
        memoryCache.setImage(image, forKey: key, cost: image.memoryCost)
    }

    /// Empties the memory cache; the disk is untouched.
    public func clearMemory() {
        memoryCache.removeAllImages()
    }

    /// The key a decoded image lives under in memory. SDWebImage 5's rule: an image decoded as a
    /// thumbnail from full-size bytes belongs under the thumbnail key, never under the full key
    /// (that would hand a small image to someone asking for the full one).
    static func memoryKey(forKey key: String, context: WebImageContext?) -> String {
        guard let size = context?.imageThumbnailPixelSize, size.width > 0 || size.height > 0 else { return key }
        let preserve = context?.imagePreserveAspectRatio ?? true
        let transformerKey = CacheKeys.thumbnailTransformerKey(size, preserveAspectRatio: preserve)
        // A key that already names this thumbnail is the thumbnail key.
        if key.contains(transformerKey) { return key }
        return CacheKeys.thumbnailed(key, size: size, preserveAspectRatio: preserve)
    }

    /// `image` reduced to its first frame, as a still (``WebImageOptions/decodeFirstFrameOnly``
    /// on a memory hit).
    static func firstFrame(of image: Image) -> Image {
        guard image.animation != nil else { return image }
        var still = image
        still.animation = nil
        return still
    }
}
