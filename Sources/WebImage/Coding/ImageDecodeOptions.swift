/// How to decode: SDWebImage's decode options (`SDImageCoderDecode…`) plus our safety limits.
public struct ImageDecodeOptions: Sendable, Equatable {
    /// The decoded image's ``Image/scale`` (SDWebImage's `decodeScaleFactor`; values below 1 mean 1).
    public var scaleFactor: Double = 1
    /// With a thumbnail size: fit inside it keeping the aspect ratio (default), or stretch to it.
    public var preserveAspectRatio = true
    /// Decode no larger than this (0×0 = full size). Never upscales. For JPEG the decoder
    /// reduces in the DCT first, then resamples.
    public var thumbnailPixelSize: PixelSize = .zero
    /// Decode only the first frame of an animation, as a still image.
    public var firstFrameOnly = false
    /// A Uniform Type Identifier hint; wins over ``fileExtensionHint``.
    public var typeIdentifierHint: String?
    /// A file extension hint, such as the URL's path extension.
    public var fileExtensionHint: String?
    /// Scale down so that all frames together take at most this many bytes of RGBA
    /// (SDWebImage's `decodeScaleDownLimitBytes`). Overrides ``thumbnailPixelSize``; never upscales.
    public var scaleDownLimitBytes: Int?
    /// Turn the pixels upright using the EXIF orientation (default). When false, the pixels are
    /// kept as stored and ``Image/orientation`` says how to show them.
    public var applyOrientation = true
    /// Refuse (``WebImageError/imageTooLarge(width:height:limit:)``) images with more pixels than
    /// this per frame. Checked after reading the header, before allocating pixels.
    public var maxPixelCount: Int = ImageDecodeOptions.defaultMaxPixelCount
    /// Decode animation frames up front only while they total at most this many bytes; past it
    /// (or with ``lazyAnimatedFrames``) frames are decoded on demand.
    public var maxAnimationByteCount: Int = ImageDecodeOptions.defaultMaxAnimationByteCount
    /// Always decode animation frames on demand (SDWebImage's lazy decoding for animations).
    public var lazyAnimatedFrames = false
    /// With a ``thumbnailPixelSize``, make the thumbnail from the one a camera embedded in the
    /// file (a JPEG's EXIF thumbnail) when it is at least as large as the thumbnail asked for and
    /// has the image's aspect ratio; otherwise decode the image as usual (SDWebImage's
    /// `decodeEmbedThumbnail`). Default false: an embedded thumbnail is fast but may be of lower
    /// quality, and an edited photo may keep a stale one.
    public var decodeEmbeddedThumbnail = false
    /// Decode a HEIC or AVIF file's embedded thumbnail item, when its primary image has one,
    /// instead of the primary image, whatever its size (imgproxy's `enforce_thumbnail`); files
    /// without one decode as usual. The thumbnail carries the metadata of its own item (usually
    /// none) and comes out flagged ``Image/isThumbnail``. AVIF thumbnails are read with libheif's
    /// AV1 decoder. Default false. Part of the options' equality, like every other property.
    public var prefersEmbeddedThumbnail = false
    /// Which metadata blocks to keep on the image (``Image/metadata``). Default: the ICC profile
    /// only, which says what the pixel values mean and is usually a few hundred bytes. EXIF (tens
    /// of kilobytes when a camera embeds a thumbnail, and often the place a photo was taken) and
    /// XMP are read only when asked for. Ours: SDWebImage keeps no metadata on its images. Not
    /// part of any cache key: an image already in the memory cache keeps what it was decoded with.
    public var readMetadata: ImageMetadata.Kinds = [.iccProfile]
    /// Convert the pixels of an image with an embedded ICC profile (Adobe RGB, Display P3, a
    /// grey profile…) to sRGB, Little CMS's relative-colorimetric conversion, and drop the
    /// profile, which no longer describes them (default). When false, the pixels stay as stored
    /// and the profile is kept in ``Image/metadata`` (if ``readMetadata`` asks for it) for an
    /// encoder to embed again. Applied by ``ImageCodersManager``; a coder called directly
    /// returns the pixels as stored. A profile that cannot describe RGB pixels (CMYK, Lab, a
    /// broken one) is dropped and the pixels left as decoded. Needs Little CMS at build time;
    /// without it the pixels stay as stored, with their profile. Ours: on Apple platforms
    /// ImageIO and Core Graphics colour-match SDWebImage's images.
    public var convertToSRGB = true

    /// 100 million pixels (400 MB of RGBA): larger than any camera photo, far below what a
    /// hostile header can claim.
    public static let defaultMaxPixelCount = 100_000_000
    /// 256 MiB of decoded frames.
    public static let defaultMaxAnimationByteCount = 256 << 20

    public init() {}

    /// Throws ``WebImageError/imageTooLarge(width:height:limit:)`` when `width × height` exceeds
    /// ``maxPixelCount``, and ``WebImageError/badImageData(_:underlying:)`` for a 0-pixel image. A coder calls
    /// this once the header is read, before it allocates pixels.
    public func checkPixelLimit(width: Int, height: Int) throws(WebImageError) {
        try DecodeGeometry.checkPixelLimit(width: width, height: height, options: self)
    }

    /// The size a coder should decode an image of `storedSize` (as stored, before `orientation`)
    /// at, or nil for full size: ``thumbnailPixelSize`` and ``scaleDownLimitBytes`` apply to the
    /// image as shown, the result is in stored orientation, and it is never larger than the
    /// original (SDWebImage's `SDImageCoderHelper` arithmetic).
    public func targetSize(storedSize: PixelSize, orientation: ImageOrientation, frameCount: Int) -> PixelSize? {
        DecodeGeometry.targetSize(
            storedSize: storedSize, orientation: orientation, frameCount: frameCount, options: self)
    }
}

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

// MARK: The sizes they ask for

/// Size arithmetic shared by every decoder, following `SDImageCoderHelper`. Coders outside the
/// library reach the parts they need through ``ImageDecodeOptions/checkPixelLimit(width:height:)``
/// and ``ImageDecodeOptions/targetSize(storedSize:orientation:frameCount:)``.
enum DecodeGeometry {
    /// SDWebImage's `scaledSizeWithImageSize:scaleSize:preserveAspectRatio:shouldScaleUp:`.
    ///
    /// Zero or negative inputs return the image size. With `preserveAspectRatio` the result fits
    /// inside `box` (the short side rounded up); without it, it is `box`. Without `shouldScaleUp`
    /// each side is capped at the original's.
    static func scaledSize(
        _ size: PixelSize, fitting box: PixelSize, preserveAspectRatio: Bool, shouldScaleUp: Bool
    ) -> PixelSize {
        guard size.isPositive, box.isPositive else { return size }
        var result: PixelSize
        if preserveAspectRatio {
            let pixelRatio = Double(size.width) / Double(size.height)
            let boxRatio = Double(box.width) / Double(box.height)
            if pixelRatio > boxRatio {
                result = PixelSize(
                    width: box.width, height: Int(clamping: Double(box.width) / pixelRatio, rounding: .up))
            } else {
                result = PixelSize(
                    width: Int(clamping: Double(box.height) * pixelRatio, rounding: .up), height: box.height)
            }
        } else {
            result = box
        }
        if !shouldScaleUp {
            result = PixelSize(width: min(size.width, result.width), height: min(size.height, result.height))
        }
        return result
    }

    /// SDWebImage's size for a byte limit: `limit / 4 / frames` pixels per frame at the image's
    /// aspect ratio, each side floored and at least 1.
    static func scaledSize(_ size: PixelSize, limitBytes: Int, frameCount: Int) -> PixelSize {
        guard size.isPositive else { return PixelSize(width: 1, height: 1) }
        let pixelsPerFrame = Double(max(limitBytes, 0) / 4 / max(frameCount, 1))
        let ratio = Double(size.height) / Double(size.width)
        let width = (pixelsPerFrame / ratio).squareRoot()
        let height = width * ratio
        return PixelSize(
            width: max(1, Int(clamping: width, rounding: .down)), height: max(1, Int(clamping: height, rounding: .down))
        )
    }

    /// The size to decode an image of `storedSize` (as stored, before `orientation`) at, or nil for
    /// full size. The thumbnail box and byte limit apply to the image as shown; the result is in
    /// stored orientation. Never larger than the original.
    static func targetSize(
        storedSize: PixelSize, orientation: ImageOrientation, frameCount: Int, options: ImageDecodeOptions
    ) -> PixelSize? {
        let shown =
            orientation.swapsDimensions
            ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
        var box = options.thumbnailPixelSize
        var preserve = options.preserveAspectRatio
        if let limit = options.scaleDownLimitBytes, limit > 0 {
            box = scaledSize(shown, limitBytes: limit, frameCount: options.firstFrameOnly ? 1 : frameCount)
            preserve = true
        }
        guard box.isPositive, shown.isPositive else { return nil }
        let result = scaledSize(shown, fitting: box, preserveAspectRatio: preserve, shouldScaleUp: false)
        if result == shown { return nil }
        return orientation.swapsDimensions ? PixelSize(width: result.height, height: result.width) : result
    }

    /// Throws ``WebImageError/imageTooLarge(width:height:limit:)`` when `width × height` exceeds
    /// the limit, and ``WebImageError/badImageData(_:underlying:)`` for a 0-pixel image.
    static func checkPixelLimit(width: Int, height: Int, options: ImageDecodeOptions) throws(WebImageError) {
        guard width > 0, height > 0 else {
            throw .badImageData("the image claims a size of \(width)x\(height) pixels")
        }
        let count = PixelSize(width: width, height: height).pixelCount
        if count > options.maxPixelCount {
            throw .imageTooLarge(width: width, height: height, limit: options.maxPixelCount)
        }
    }
}

extension ImageDecodeOptions {
    /// Whether `frameCount` frames of `frameSize` RGBA pixels are decoded up front: not when
    /// ``lazyAnimatedFrames`` asks for lazy frames, nor when they would exceed
    /// ``maxAnimationByteCount`` (or overflow counting them).
    func decodesFramesEagerly(frameSize: PixelSize, frameCount: Int) -> Bool {
        let (frameBytes, overflow) = frameSize.pixelCount.multipliedReportingOverflow(by: 4)
        let (total, overflow2) = frameBytes.multipliedReportingOverflow(by: max(frameCount, 0))
        return !lazyAnimatedFrames && !overflow && !overflow2 && total <= maxAnimationByteCount
    }
}

/// How to encode (SDWebImage's `SDImageCoderEncode…` options).
public struct ImageEncodeOptions: Sendable, Equatable {
    /// 0…1; SDWebImage's default is 1 (best quality). Ignored by lossless formats. Values
    /// outside 0…1 are clamped to it, and NaN is 1 (see ``effectiveQuality``).
    public var compressionQuality: Double = 1

    /// ``compressionQuality`` as the encoders use it: within 0…1, NaN read as 1.
    public var effectiveQuality: Double { Self.effectiveQuality(compressionQuality) }

    static func effectiveQuality(_ quality: Double) -> Double { quality.isNaN ? 1 : quality.clamped(to: 0...1) }
    /// Scale down (keeping the aspect ratio) to fit in this size before encoding; 0×0 = off.
    public var maxPixelSize: PixelSize = .zero
    /// Search the quality for the largest output not above this many bytes (replaces
    /// ``compressionQuality`` for lossy formats). If even the lowest quality is larger, that
    /// smallest output is returned (as SDWebImage and imgproxy do), unless
    /// ``failsAboveMaxFileSize``.
    public var maxFileSize: Int?
    /// With ``maxFileSize``: throw ``WebImageError/Code/encodingFailed`` rather than return a
    /// file above the limit (the smallest a lossy format can make, or a lossless file). Checked by
    /// ``ImageCodersManager/encode(_:as:options:)``, which the cache, the CLI and the default
    /// format choice encode through. Ours: SDWebImage has no such option.
    public var failsAboveMaxFileSize = false
    /// What transparent pixels are composited onto for formats without alpha (JPEG). Default white.
    public var backgroundColor: RGBA8 = .white
    /// Encode only the first frame of an animation.
    public var firstFrameOnly = false
    /// WebP: lossless instead of lossy. Lossless keeps the RGB of fully transparent pixels.
    public var lossless = false
    /// JPEG: write a progressive JPEG (coarse scans first, refined by later ones), which a
    /// progressive load can show early. Ours: SDWebImage has no such encode option.
    public var progressive = false
    /// Which of the image's metadata blocks (``Image/metadata``) the encoders write. Default:
    /// the ICC profile only, so that pixels decoded with ``ImageDecodeOptions/convertToSRGB``
    /// off keep their profile (as a `CGImage`'s colour space goes into ImageIO's output under
    /// SDWebImage; converted pixels have none); EXIF and XMP, which may say where a photo was
    /// taken, are stripped. A kept EXIF
    /// block says "upright" (orientation 1), because the encoders write upright pixels. Blocks a
    /// format cannot hold are left out: JPEG's EXIF and XMP segments hold at most 65,533 bytes
    /// each, and GIF holds none.
    public var keptMetadata: ImageMetadata.Kinds = [.iccProfile]
    /// How hard the encoder works for a smaller file (ours: SDWebImage has no such option); see
    /// ``EncodeEffort`` for what each level does per format.
    public var effort: EncodeEffort = .balanced
    /// JPEG: how much colour detail to keep. Default 4:2:0, what libjpeg and Pillow write.
    public var chromaSubsampling: ChromaSubsampling = .yuv420
    /// Write an image whose every pixel has R = G = B as grayscale where the format has it: PNG
    /// colour type 0 (gray) or 4 (gray and alpha), a one-component JPEG (default). The pixels
    /// decode back the same (PNG bit-exact). An sRGB ICC profile is dropped from such an image
    /// (gray without a profile means the same), a gray profile kept; an image with another RGB
    /// profile stays in colour. A PNG whose palette encoding is smaller is written with the
    /// palette; animations stay in colour. Ours: SDWebImage writes what Core Graphics hands it.
    public var writesGrayscale = true

    public init() {}
}
