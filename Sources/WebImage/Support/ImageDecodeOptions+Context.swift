extension ImageDecodeOptions {
    /// SDWebImage's scale-down budget for ``WebImageOptions/scaleDownLargeImages``: 90 MB, its
    /// macOS value (servers are closer to desktops than to phones).
    public static let defaultScaleDownLimitBytes = 90 * 1024 * 1024

    /// The decode options for a request, as SDWebImage's `SDGetDecodeOptionsFromContext`: start
    /// from the context's ``WebImageContext/imageDecodeOptions``, then the individual keys win —
    /// first frame (option), scale (context, else `@2x`/`@3x` in the key), aspect ratio,
    /// thumbnail size, type hint (context, else the key's path extension) and the byte limit
    /// (context, else the default when ``WebImageOptions/scaleDownLargeImages`` is set).
    public init(context: WebImageContext?, options: WebImageOptions, cacheKey: String?) {
        self = context?.imageDecodeOptions ?? ImageDecodeOptions()
        if options.contains(.decodeFirstFrameOnly) { firstFrameOnly = true }
        if let scale = context?.imageScaleFactor, scale >= 1 {
            scaleFactor = scale
        } else if let cacheKey {
            scaleFactor = CacheKeys.scaleFactor(forKey: cacheKey)
        }
        if let preserve = context?.imagePreserveAspectRatio { preserveAspectRatio = preserve }
        if let thumbnail = context?.imageThumbnailPixelSize { thumbnailPixelSize = thumbnail }
        if let hint = context?.imageTypeIdentifierHint {
            typeIdentifierHint = hint
        } else if let cacheKey {
            let ext = CacheKeys.pathExtension(forKey: cacheKey)
            if !ext.isEmpty { fileExtensionHint = ext }
        }
        if let limit = context?.imageScaleDownLimitBytes {
            scaleDownLimitBytes = limit
        } else if options.contains(.scaleDownLargeImages) {
            scaleDownLimitBytes = Self.defaultScaleDownLimitBytes
        }
    }
}
