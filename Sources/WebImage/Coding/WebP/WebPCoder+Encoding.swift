import CWebP
import Foundation

extension WebPCoder {
    /// Encodes `image` as WebP: lossy at `compressionQuality × 100` (or the best quality within
    /// `maxFileSize`), or lossless with the RGB under transparent pixels kept (`options.lossless`).
    /// The upright pixels are encoded, scaled down to fit `maxPixelSize`. Animations keep their
    /// frames, durations and loop count unless `firstFrameOnly`. The blocks of
    /// ``ImageEncodeOptions/keptMetadata`` go into `ICCP`, `EXIF` and `XMP ` chunks.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard format == .webp else { throw .unsupportedFormat(format) }
        let metadata = image.metadata.forEncoding(options.keptMetadata)
        let withMetadata = { (webp: Data) throws(WebImageError) in
            metadata.isEmpty ? webp : try WebPMetadata.inserting(metadata, into: webp)
        }
        if let animation = image.animation, animation.frameCount > 1, !options.firstFrameOnly {
            return try withMetadata(encodeAnimation(animation, orientation: image.orientation, options: options))
        }
        let bitmap = try image.bitmap.preparedForEncoding(orientation: image.orientation, options: options)
        let method = Self.stillMethod(options.effort)
        if options.lossless {
            return try withMetadata(Self.encodeStill(bitmap, quality: 75, lossless: true, method: method))
        }
        let quality = Self.quality(options.compressionQuality)
        let first = try Self.encodeStill(bitmap, quality: quality, lossless: false, method: method)
        let firstWithMetadata = try withMetadata(first)
        guard let limit = options.maxFileSize, firstWithMetadata.count > limit else { return firstWithMetadata }
        // The chunks add the same bytes to every candidate: search for what leaves room for them.
        let overhead = firstWithMetadata.count - first.count
        return try withMetadata(
            Self.searchQuality(
                bitmap, below: Int(clamping: quality, rounding: .down), limit: limit - overhead, smallest: first,
                method: method))
    }

    /// libwebp's `method` (0 fastest … 6 smallest) for a still image (see ``EncodeEffort``).
    static func stillMethod(_ effort: EncodeEffort) -> Int32 {
        switch effort {
        case .fastest: 2
        case .balanced: 4
        case .smallest: 6
        }
    }

    /// libwebp's `method` for the frames of an animation, which are each encoded several times.
    static func animationMethod(_ effort: EncodeEffort) -> Int32 {
        switch effort {
        case .fastest: 0
        case .balanced: 1
        case .smallest: 4
        }
    }

    /// Binary search over integer qualities below `upper` for the largest output within `limit`.
    /// libwebp's own `target_size` overshoots or ignores the target (Benchmarks/README.md), so
    /// each candidate's size is checked.
    private static func searchQuality(
        _ bitmap: ImageBitmap, below upper: Int, limit: Int, smallest: Data, method: Int32
    ) throws(WebImageError) -> Data {
        // Steps are qualities upper - 1 down to 0.
        try FileSizeSearch.bestWithin(limit, steps: upper, smallest: smallest) { step throws(WebImageError) in
            try encodeStill(bitmap, quality: Float(upper - 1 - step), lossless: false, method: method)
        }
    }

    /// 0…100 from SDWebImage's 0…1 compression quality (NaN means the default, 1).
    static func quality(_ compressionQuality: Double) -> Float {
        Float(ImageEncodeOptions.effectiveQuality(compressionQuality) * 100)
    }

    /// A libwebp encoder config for one quality and `method`; lossless keeps RGB under alpha 0
    /// (`exact`).
    static func makeConfig(quality: Float, lossless: Bool, method: Int32) throws(WebImageError) -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw .encodingFailed("libwebp's encoder version does not match its headers")
        }
        config.quality = quality
        config.method = method
        if lossless {
            config.lossless = 1
            config.exact = 1
        }
        guard WebPValidateConfig(&config) != 0 else {
            throw .encodingFailed("libwebp rejected the encoder settings")
        }
        return config
    }

    /// Imports `bitmap` into `picture` (already initialised) as ARGB (`argb`) or as YUV; the
    /// caller frees the picture. Lossless encoding and the animation encoder work on ARGB: given
    /// YUV, the animation encoder would convert every frame back to ARGB (lossily) and then to
    /// YUV again.
    static func importPixels(_ bitmap: ImageBitmap, into picture: inout WebPPicture, argb: Bool)
        throws(WebImageError)
    {
        guard bitmap.width <= Int(WEBP_MAX_DIMENSION), bitmap.height <= Int(WEBP_MAX_DIMENSION) else {
            throw .encodingFailed(
                "\(bitmap.width)x\(bitmap.height) exceeds WebP's limit of \(WEBP_MAX_DIMENSION) pixels a side")
        }
        picture.use_argb = argb ? 1 : 0
        picture.width = Int32(bitmap.width)
        picture.height = Int32(bitmap.height)
        let ok = bitmap.pixels.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(bitmap.bytesPerRow))
        }
        guard ok != 0 else { throw .encodingFailed("libwebp could not import the pixels (out of memory)") }
    }

    /// One still image through libwebp's advanced API.
    static func encodeStill(_ bitmap: ImageBitmap, quality: Float, lossless: Bool, method: Int32)
        throws(WebImageError) -> Data
    {
        var config = try makeConfig(quality: quality, lossless: lossless, method: method)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw .encodingFailed("libwebp's encoder version does not match its headers")
        }
        defer { WebPPictureFree(&picture) }
        try importPixels(bitmap, into: &picture, argb: lossless)
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let ok = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard ok != 0, let memory = writer.mem else {
            throw .encodingFailed("libwebp error \(picture.error_code.rawValue)")
        }
        return Data(bytes: memory, count: writer.size)
    }
}
