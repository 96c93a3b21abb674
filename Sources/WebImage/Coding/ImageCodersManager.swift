import Foundation

/// The coder registry (`SDImageCodersManager`): tries coders newest first and uses the first
/// that can handle the data or format. It is itself an ``ImageCoding``.
public final class ImageCodersManager: ProgressiveImageCoding, AnimatedImageCoding {
    private let registered: Locked<[any ImageCoding]>

    /// The registry with the built-in coders (``builtInCoders``).
    public static let shared = ImageCodersManager()

    /// A registry holding `coders`, the first of them tried first.
    public init(coders: [any ImageCoding] = ImageCodersManager.builtInCoders) {
        registered = Locked(coders)
    }

    /// The coders in the order they are tried.
    public var coders: [any ImageCoding] {
        get { registered.withLock { $0 } }
        set { registered.withLock { $0 = newValue } }
    }

    /// Adds a coder that is tried before every coder already registered.
    public func addCoder(_ coder: any ImageCoding) {
        registered.withLock { $0.insert(coder, at: 0) }
    }

    /// Removes every registered coder of type `type`.
    public func removeCoders<C: ImageCoding>(ofType type: C.Type) {
        registered.withLock { $0.removeAll { $0 is C } }
    }

    /// The coder that will decode `data`, if any.
    public func decoder(for data: Data) -> (any ImageCoding)? {
        coders.first { $0.canDecode(data) }
    }

    /// The coder that will encode to `format`, if any.
    public func encoder(for format: ImageFormat) -> (any ImageCoding)? {
        coders.first { $0.canEncode(to: format) }
    }

    public func canDecode(_ data: Data) -> Bool { decoder(for: data) != nil }

    public func canEncode(to format: ImageFormat) -> Bool { encoder(for: format) != nil }

    public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        try requireDecoder(for: data).imageInfo(for: data)
    }

    /// Decodes `data` with the coder that recognises it, then converts the pixels to sRGB
    /// when the image carries an ICC profile (``ImageDecodeOptions/convertToSRGB``).
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let image = try requireDecoder(for: data).decode(data, options: ColorManagement.coderOptions(options))
        return ColorManagement.finish(consume image, options: options)
    }

    /// Encodes `image`. With ``ImageFormat/undefined`` the format follows SDWebImage's rule:
    /// the image's own format if known, else GIF for animations, PNG with alpha, JPEG otherwise.
    /// With ``ImageEncodeOptions/failsAboveMaxFileSize``, a file above
    /// ``ImageEncodeOptions/maxFileSize`` is an error instead of the result.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        let target = format == .undefined ? Self.defaultEncodingFormat(for: image) : format
        guard let coder = encoder(for: target) else { throw .unsupportedFormat(target) }
        let data = try coder.encode(image, as: target, options: options)
        if options.failsAboveMaxFileSize, let limit = options.maxFileSize, data.count > limit {
            throw .encodingFailed(
                "the \(target) file comes to \(data.count) bytes; the limit is \(limit)")
        }
        return data
    }

    public func canDecodeIncrementally(_ data: Data) -> Bool {
        coders.contains { ($0 as? any ProgressiveImageCoding)?.canDecodeIncrementally(data) ?? false }
    }

    /// An incremental decoder that picks its coder once enough bytes arrived to tell the format.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        DeferredIncrementalDecoder(manager: self, options: options)
    }

    /// The incremental decoder of the first progressive coder that accepts `data`, if any.
    func incrementalDecoder(for data: Data, options: ImageDecodeOptions) -> (any IncrementalImageDecoding)? {
        for coder in coders {
            if let progressive = coder as? any ProgressiveImageCoding, progressive.canDecodeIncrementally(data) {
                return progressive.makeIncrementalDecoder(options: ColorManagement.coderOptions(options))
            }
        }
        return nil
    }

    public func animatedImageProvider(for data: Data, options: ImageDecodeOptions) throws(WebImageError)
        -> any AnimatedImageProvider
    {
        let coder = try requireDecoder(for: data)
        guard let animated = coder as? any AnimatedImageCoding else {
            throw .unsupportedFormat(ImageFormat(detecting: data))
        }
        let provider = try animated.animatedImageProvider(for: data, options: options)
        return ColorManagement.provider(provider, profile: MetadataProbe.iccProfile(in: data), options: options)
    }

    /// SDWebImage's choice of format when an image must be encoded without one: the image's
    /// own, else GIF for an animation, PNG with alpha and JPEG otherwise. An SVG is drawn, never
    /// written, so a decoded SVG (which has alpha) is written as PNG.
    public static func defaultEncodingFormat(for image: Image) -> ImageFormat {
        if image.format != .undefined, image.format != .svg { return image.format }
        if image.isAnimated { return .gif }
        return image.hasAlpha ? .png : .jpeg
    }

    private func requireDecoder(for data: Data) throws(WebImageError) -> any ImageCoding {
        if let coder = decoder(for: data) { return coder }
        if data.isEmpty { throw .badImageData("the data is empty") }
        let format = ImageFormat(detecting: data)
        if format == .undefined {
            throw .badImageData("the data is not in any known image format")
        }
        throw .unsupportedFormat(format)
    }
}

/// Waits until the bytes tell which progressive coder to use, then forwards to it.
private final class DeferredIncrementalDecoder: IncrementalImageDecoding {
    private let manager: ImageCodersManager
    private let options: ImageDecodeOptions
    private var inner: (any IncrementalImageDecoding)?

    init(manager: ImageCodersManager, options: ImageDecodeOptions) {
        self.manager = manager
        self.options = options
    }

    func update(_ data: Data, isFinal: Bool) {
        if inner == nil { inner = manager.incrementalDecoder(for: data, options: options) }
        inner?.update(data, isFinal: isFinal)
    }

    func currentImage() throws(WebImageError) -> Image? {
        try inner?.currentImage().map { ColorManagement.finish($0, options: options) }
    }
}

/// How to decode: SDWebImage's decode options (`SDImageCoderDecode…`) plus our safety limits.
public struct ImageDecodeOptions: Sendable, Equatable {
    /// The decoded image's ``Image/scale`` (SDWebImage's `decodeScaleFactor`; values below 1 mean 1).
    public var scaleFactor: Double = 1
    /// With a thumbnail size: fit inside it keeping the aspect ratio (default), or stretch to it.
    public var preserveAspectRatio = true
    /// Decode no larger than this (0×0 = full size). Never upscales a raster (an SVG is drawn
    /// at this size, larger than its own too). For JPEG the decoder reduces in the DCT first,
    /// then resamples.
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
    /// Keep more than 8 bits per channel: a source with deeper samples (16-bit PNG and TIFF, float
    /// TIFF, 10- and 12-bit AVIF, HEIC and JPEG XL) also gets an ``Image/deepBitmap`` at 16 bits
    /// per channel, and its ``Image/bitmap`` is that rounded to 8 bits. Default false: without it
    /// 16-bit samples keep their high byte, as before, and nothing more is allocated. 8-bit
    /// sources, animations and progressive partial results never get a deep bitmap. imgproxy's
    /// `preserve_hdr`.
    public var preservesHighBitDepth = false

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

extension ImageFormat {
    /// Detects the format from the leading bytes (magic numbers), as SDWebImage's
    /// `sd_imageFormatForImageData` does, plus AVIF, JPEG XL, more HEIF brands, ICO (its
    /// directory header: 0, 1, and an entry count of at least 1), and SVG by its start (a byte
    /// order mark, white space, an XML declaration, comments and a document type declaration
    /// before `<svg`) as well as by SDWebImage's `</svg>` near the end.
    ///
    /// SDWebImage decides JPEG, TIFF and BMP from the first byte alone; this follows it, except
    /// that `FF 0A` (a bare JPEG XL code stream) is JPEG XL. Returns ``undefined`` for empty or
    /// unrecognised data.
    public init(detecting data: Data) {
        self = data.withUnsafeBytes { ImageFormat.detect(UnsafeRawBufferPointer($0)) }
    }

    /// The format an ISO BMFF `ftyp` box names: its major brand decides HEIC (`heic`, `heix`,
    /// `hevc`, `hevx`, `heim`, `heis`), AVIF (`avif`, `avis`) or plain HEIF (`mif1`, `msf1`), as
    /// SDWebImage's brands do; a `mif1`/`msf1` file that lists `avif` or `avis` among its
    /// compatible brands is AV1-coded, so AVIF.
    private static func isoBrand(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        func brand(at offset: Int) -> String { String(decoding: bytes[offset..<offset + 4], as: UTF8.self) }
        switch brand(at: 8) {
        case "heic", "heix", "hevc", "hevx", "heim", "heis": return .heic
        case "avif", "avis": return .avif
        case "mif1", "msf1":
            // Compatible brands follow the minor version, up to the end of the box.
            let boxSize = (0..<4).reduce(0) { $0 << 8 | Int(bytes[$1]) }
            let end = min(boxSize, bytes.count)
            for offset in stride(from: 16, to: end - 3, by: 4) where ["avif", "avis"].contains(brand(at: offset)) {
                return .avif
            }
            return .heif
        default: return .undefined
        }
    }

    static func detect(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        guard let first = bytes.first else { return .undefined }
        func matches(_ ascii: String, at offset: Int) -> Bool {
            let expected = Array(ascii.utf8)
            guard bytes.count >= offset + expected.count else { return false }
            return expected.indices.allSatisfy { bytes[offset + $0] == expected[$0] }
        }
        switch first {
        case 0xFF:
            return bytes.count >= 2 && bytes[1] == 0x0A ? .jpegXL : .jpeg
        case 0x89: return .png
        case 0x47: return .gif
        case 0x49, 0x4D: return .tiff
        case 0x42: return .bmp
        case 0x52:
            return matches("RIFF", at: 0) && matches("WEBP", at: 8) ? .webp : .undefined
        case 0x00:
            // The container's signature box: 0x87 is one byte here, not a UTF-8 character.
            let jxlSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
            if bytes.count >= 12, jxlSignature.indices.allSatisfy({ bytes[$0] == jxlSignature[$0] }) {
                return .jpegXL
            }
            if bytes.count >= 12, matches("ftyp", at: 4) { return isoBrand(bytes) }
            // ICO's directory: reserved 0, type 1 (icon), then at least one entry.
            let isIcon = bytes.count >= 6 && bytes[1] == 0 && bytes[2] == 1 && bytes[3] == 0
            return isIcon && (bytes[4] != 0 || bytes[5] != 0) ? .ico : .undefined
        case 0x25:
            return matches("%PDF", at: 0) ? .pdf : .undefined
        case 0x3C, 0xEF, 0x09, 0x0A, 0x0D, 0x20:
            if SVGSniffing.isSVG(bytes) { return .svg }
            guard first == 0x3C else { return .undefined }
            // SDWebImage's test: markup that ends with `</svg>` in its last 100 bytes.
            let tail = bytes.count > 100 ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - 100)...]) : bytes
            let marker = Array("</svg>".utf8)
            guard tail.count >= marker.count else { return .undefined }
            for start in 0...(tail.count - marker.count)
            where marker.indices.allSatisfy({ tail[start + $0] == marker[$0] }) {
                return .svg
            }
            return .undefined
        default:
            return .undefined
        }
    }
}

/// Turns what a coder decoded into sRGB pixels when its ICC profile says they are something
/// else (``ImageDecodeOptions/convertToSRGB``). ``ImageCodersManager`` runs every decode
/// through it, so every coder, built in or added, gets the same treatment.
package enum ColorManagement {
    #if ColorManagement
        /// Whether pixels described by `profile` are sRGB already (to within one level), so that
        /// the profile can go with them unconverted.
        package static func isSRGB(_ profile: Data) -> Bool {
            SRGBConverter.shared.conversion(for: profile).kind == .identity
        }

        /// The options a coder is given: the ICC profile is read whenever it is needed for the
        /// conversion, even if ``ImageDecodeOptions/readMetadata`` leaves it out.
        static func coderOptions(_ options: ImageDecodeOptions) -> ImageDecodeOptions {
            guard options.convertToSRGB else { return options }
            var coderOptions = options
            coderOptions.readMetadata.insert(.iccProfile)
            return coderOptions
        }

        /// `image` with its pixels (every frame) converted from its profile to sRGB, and the profile
        /// dropped, since it no longer describes them. Images without a profile are sRGB already.
        /// Takes the image over, so that a still's pixels are converted in place, not copied.
        static func finish(_ image: consuming Image, options: ImageDecodeOptions) -> Image {
            guard options.convertToSRGB, let profile = image.metadata.iccProfile else { return image }
            image.metadata.iccProfile = nil
            let conversion = SRGBConverter.shared.conversion(for: profile)
            guard conversion.changesPixels else { return image }
            guard let animation = image.animation else {
                if let deep = image.deepBitmap {
                    // The deep pixels are converted at 16 bits and the 8-bit ones made from them;
                    // if lcms cannot, they are dropped rather than left unconverted.
                    if let converted = DeepSRGBConversion.converted(deep, from: profile) {
                        return image.withDeepBitmap(converted)
                    }
                    image.deepBitmap = nil
                }
                conversion.apply(to: &image.bitmap)
                return image
            }
            switch animation.storage {
            case .decoded(let frames):
                // The first frame usually shares the poster's pixels: convert them once.
                let posterIsFirstFrame = frames.first?.bitmap == image.bitmap
                let converted = frames.map { frame in
                    var frame = frame
                    conversion.apply(to: &frame.bitmap)
                    return frame
                }
                if posterIsFirstFrame {
                    image.bitmap = converted[0].bitmap
                } else {
                    conversion.apply(to: &image.bitmap)
                }
                image.animation = ImageAnimation(frames: converted, loopCount: animation.loopCount)
            case .lazy(let provider):
                conversion.apply(to: &image.bitmap)
                var lazy = ImageAnimation(provider: SRGBFrameProvider(provider, conversion: conversion))
                lazy.loopCount = animation.loopCount
                image.animation = lazy
            }
            return image
        }

        /// A lazily decoded animation of `provider` whose frames come out in sRGB.
        static func provider(_ provider: any AnimatedImageProvider, profile: Data?, options: ImageDecodeOptions)
            -> any AnimatedImageProvider
        {
            guard options.convertToSRGB, let profile else { return provider }
            let conversion = SRGBConverter.shared.conversion(for: profile)
            return conversion.changesPixels ? SRGBFrameProvider(provider, conversion: conversion) : provider
        }
    #else
        // Built without Little CMS: pixels stay as stored and keep their profile.
        package static func isSRGB(_ profile: Data) -> Bool { false }
        static func coderOptions(_ options: ImageDecodeOptions) -> ImageDecodeOptions { options }
        static func finish(_ image: consuming Image, options: ImageDecodeOptions) -> Image { image }
        static func provider(_ provider: any AnimatedImageProvider, profile: Data?, options: ImageDecodeOptions)
            -> any AnimatedImageProvider
        { provider }
    #endif
}

#if ColorManagement
    /// Converts each frame another provider decodes.
    final class SRGBFrameProvider: AnimatedImageProvider {
        private let inner: any AnimatedImageProvider
        private let conversion: SRGBConversion

        init(_ inner: any AnimatedImageProvider, conversion: SRGBConversion) {
            self.inner = inner
            self.conversion = conversion
        }

        var animatedImageData: Data { inner.animatedImageData }
        var frameCount: Int { inner.frameCount }
        var loopCount: Int { inner.loopCount }
        var heldByteCount: Int { inner.heldByteCount }
        func duration(at index: Int) -> Double { inner.duration(at: index) }

        func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
            var bitmap = try inner.frame(at: index)
            conversion.apply(to: &bitmap)
            return bitmap
        }
    }
#endif
