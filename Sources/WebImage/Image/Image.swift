/// A decoded image: RGBA8 pixels plus what SDWebImage keeps on `UIImage` and its `sd_` properties.
///
/// `Image` is a value type; its pixel storage is copy on write, so passing it around is cheap.
/// For an animation, ``bitmap`` is the first frame (the poster) and ``animation`` holds every
/// frame, decoded up front or on demand (see ``ImageAnimation``).
public struct Image: Sendable {
    /// The pixels: the still image, or the first frame of an animation.
    public var bitmap: ImageBitmap
    /// Points-to-pixels factor (SDWebImage's `scale`, from `@2x` keys or the scale-factor option).
    public var scale: Double
    /// How ``bitmap`` must be turned to show upright. `.up` once a decoder has applied EXIF orientation.
    public var orientation: ImageOrientation
    /// The format the image was decoded from, or ``ImageFormat/undefined`` for images made in memory.
    public var format: ImageFormat
    /// The frames of an animation; nil for a still image.
    public var animation: ImageAnimation?
    /// A partial result of progressive loading (`sd_isIncremental`).
    public var isIncremental: Bool
    /// Decoded at a reduced size because a thumbnail size or byte limit asked for it (`sd_isThumbnail`).
    public var isThumbnail: Bool
    /// Produced by a transformer (`sd_isTransformed`).
    public var isTransformed: Bool
    /// Whether the source has an alpha channel (not whether any pixel is transparent;
    /// see ``ImageBitmap/containsTransparency``).
    public var hasAlpha: Bool
    /// The EXIF, ICC and XMP blocks the decoder kept (``ImageDecodeOptions/readMetadata``), which
    /// encoders can write again (``ImageEncodeOptions/keptMetadata``). Transformers carry it over.
    public var metadata: ImageMetadata

    public init(
        bitmap: ImageBitmap, scale: Double = 1, orientation: ImageOrientation = .up,
        format: ImageFormat = .undefined, animation: ImageAnimation? = nil,
        hasAlpha: Bool = true, isIncremental: Bool = false, isThumbnail: Bool = false,
        isTransformed: Bool = false, metadata: ImageMetadata = ImageMetadata()
    ) {
        self.bitmap = bitmap
        self.scale = scale
        self.orientation = orientation
        self.format = format
        self.animation = animation
        self.hasAlpha = hasAlpha
        self.isIncremental = isIncremental
        self.isThumbnail = isThumbnail
        self.isTransformed = isTransformed
        self.metadata = metadata
    }

    /// Width of ``bitmap`` in pixels (as stored; see ``orientation``).
    public var width: Int { bitmap.width }
    /// Height of ``bitmap`` in pixels (as stored; see ``orientation``).
    public var height: Int { bitmap.height }
    /// The size in pixels as shown, after ``orientation``.
    public var orientedSize: PixelSize {
        orientation.swapsDimensions
            ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
    }
    /// Whether this is an animation of more than one frame.
    public var isAnimated: Bool { (animation?.frameCount ?? 1) > 1 }
    /// Frames in the image: 1 for a still image.
    public var frameCount: Int { animation?.frameCount ?? 1 }

    /// Bytes of decoded pixels this value actually holds: the poster bitmap plus any animation
    /// frames that are decoded and kept (frames shared with the poster are counted once), plus
    /// the ``metadata`` blocks. This is the cost a memory cache should charge.
    public var memoryCost: Int {
        let pixels = animation.map { max(bitmap.byteCount, $0.heldByteCount) } ?? bitmap.byteCount
        return pixels + metadata.byteCount
    }
}
