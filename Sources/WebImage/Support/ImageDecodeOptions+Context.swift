extension ImageDecodeOptions {
    /// The scale-down budget for ``WebImageOptions/scaleDownLargeImages`` when the context sets
    /// no ``WebImageContext/imageScaleDownLimitBytes`` (SDWebImage's
    /// `SDImageCoderHelper.defaultScaleDownLimitBytes`). 90 MB by default, SDWebImage's macOS
    /// value (servers are closer to desktops than to phones). Settable for the whole process;
    /// loads that start afterwards use the new value. Values below one pixel (4 bytes) are
    /// ignored, as in SDWebImage.
    public static var defaultScaleDownLimitBytes: Int {
        get { scaleDownDefault.withLock { $0 } }
        set {
            guard newValue >= 4 else { return }
            scaleDownDefault.withLock { $0 = newValue }
        }
    }

    /// SDWebImage's own default, which ``defaultScaleDownLimitBytes`` starts at.
    static let initialScaleDownLimitBytes = 90 * 1024 * 1024
    private static let scaleDownDefault = Locked(initialScaleDownLimitBytes)

    /// The decode options for a request, as SDWebImage's `SDGetDecodeOptionsFromContext`: start
    /// from the context's ``WebImageContext/imageDecodeOptions``, then the individual keys win —
    /// first frame (option), scale (context, else `@2x`/`@3x` in the key), aspect ratio,
    /// thumbnail size, embedded thumbnail, type hint (context, else the key's path extension) and the byte limit
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
        if let embedded = context?.imageEmbedThumbnail { decodeEmbeddedThumbnail = embedded }
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
