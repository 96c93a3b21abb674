/// A still decoder's pixels as they came out of the codec: 8 bits per channel, or 16 when the
/// caller asked to keep a deeper source's bits (``ImageDecodeOptions/preservesHighBitDepth``).
/// One path from there to an ``Image`` for every decoder, so that the thumbnail size and the
/// orientation are applied to the deep pixels and the 8-bit bitmap is made from the result.
/// Encoders that write either depth (AVIF, JPEG XL) take their frames in it too.
enum DecodedPixels {
    case eightBit(ImageBitmap)
    case deep(ImageBitmap16)

    var size: PixelSize {
        switch self {
        case .eightBit(let bitmap): bitmap.size
        case .deep(let deep): deep.size
        }
    }

    /// Whether any pixel is not fully opaque.
    var containsTransparency: Bool {
        switch self {
        case .eightBit(let bitmap): bitmap.containsTransparency
        case .deep(let deep): deep.containsTransparency
        }
    }

    /// Whether every pixel has equal red, green and blue.
    var isGray: Bool {
        switch self {
        case .eightBit(let bitmap): bitmap.isGray
        case .deep(let deep): deep.isGray
        }
    }

    /// Resampled to the thumbnail size or byte limit the options ask for (if any), then turned
    /// upright unless the options keep the stored orientation.
    func finished(orientation: ImageOrientation, frameCount: Int, options: ImageDecodeOptions) throws(WebImageError)
        -> FinishedPixels
    {
        let target = DecodeGeometry.targetSize(
            storedSize: size, orientation: orientation, frameCount: frameCount, options: options)
        let turn = options.applyOrientation ? orientation : .up
        let shown = options.applyOrientation ? ImageOrientation.up : orientation
        switch self {
        case .eightBit(var bitmap):
            if let target { bitmap = try bitmap.resampled(to: target) }
            return FinishedPixels(
                bitmap: bitmap.applyingOrientation(turn), deep: nil, orientation: shown, isThumbnail: target != nil)
        case .deep(var deep):
            if let target { deep = try deep.resampled(to: target) }
            deep = deep.applyingOrientation(turn)
            return FinishedPixels(
                bitmap: deep.reducedToEightBits(), deep: deep, orientation: shown, isThumbnail: target != nil)
        }
    }
}

/// Pixels ready to become an ``Image``: sized, turned, and (when deep) with their 8-bit bitmap.
struct FinishedPixels {
    var bitmap: ImageBitmap
    var deep: ImageBitmap16?
    var orientation: ImageOrientation
    var isThumbnail: Bool

    func image(scale: Double, format: ImageFormat, hasAlpha: Bool, metadata: ImageMetadata) -> Image {
        var image = Image(
            bitmap: bitmap, scale: scale, orientation: orientation, format: format, hasAlpha: hasAlpha,
            isThumbnail: isThumbnail, metadata: metadata)
        image.deepBitmap = deep
        return image
    }
}
