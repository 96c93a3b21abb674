/// What every built-in transformer shares: upright input pixels, result limits and metadata.
enum TransformSupport {
    /// Results larger than this are refused, as decodes are (``ImageDecodeOptions/defaultMaxPixelCount``).
    static let maxPixelCount = ImageDecodeOptions.defaultMaxPixelCount

    /// The pixels as shown: the image's orientation applied, so transforms act on what users see.
    static func uprightBitmap(of image: Image) -> ImageBitmap {
        image.orientation == .up ? image.bitmap : image.bitmap.applyingOrientation(image.orientation)
    }

    /// The deep pixels as shown (see ``uprightBitmap(of:)``), or nil when the image has none.
    static func uprightDeepBitmap(of image: Image) -> ImageBitmap16? {
        image.deepBitmap.map { image.orientation == .up ? $0 : $0.applyingOrientation(image.orientation) }
    }

    /// Throws ``WebImageError/imageTooLarge(width:height:limit:)`` unless `size` is positive and
    /// within ``maxPixelCount``; call before allocating a result.
    static func checkResultSize(_ size: PixelSize, _ what: String) throws(WebImageError) {
        guard size.isPositive else {
            throw .invalidArgument("\(what): the result would be \(size) pixels")
        }
        if size.pixelCount > maxPixelCount {
            throw .imageTooLarge(width: size.width, height: size.height, limit: maxPixelCount)
        }
    }

    /// A whole-pixel length from a computed `Double`, refusing NaN, infinities and values above
    /// the pixel limit.
    static func pixelLength(_ value: Double, _ what: String) throws(WebImageError) -> Int {
        guard value.isFinite else {
            throw .invalidArgument("\(what) must be finite, got \(value)")
        }
        guard value <= Double(maxPixelCount) else {
            throw .imageTooLarge(width: Int(clamping: value), height: 1, limit: maxPixelCount)
        }
        return Int(clamping: value)
    }

    /// The result of transforming `source` into `bitmap`: upright, marked transformed, with the
    /// source's metadata when the transformer preserves it.
    static func result(
        _ bitmap: ImageBitmap, from source: Image, hasAlpha: Bool, preservesMetadata: Bool = true
    ) -> Image {
        let image = Image(
            bitmap: bitmap, scale: source.scale, orientation: .up, format: .undefined, hasAlpha: hasAlpha,
            isTransformed: true)
        return preservesMetadata ? image.copyingMetadata(from: source) : image
    }
}

extension TransformSupport {
    /// The result of a transformer that keeps deep pixels: `deep` as ``Image/deepBitmap``, the
    /// 8-bit ``Image/bitmap`` made from it, otherwise as ``result(_:from:hasAlpha:preservesMetadata:)``.
    static func result(deep: ImageBitmap16, from source: Image, hasAlpha: Bool) -> Image {
        result(deep.reducedToEightBits(), from: source, hasAlpha: hasAlpha).withDeepBitmap(deep, bitmapIsMade: true)
    }
}

extension Image {
    /// This image with `source`'s metadata (SDWebImage's `SDImageCopyAssociatedObject`): format,
    /// scale, loop count (when both animate), incremental and thumbnail flags, the EXIF, ICC
    /// and XMP blocks (``Image/metadata``), and marked transformed. Pixels, orientation and alpha stay: a transformer that turned the pixels
    /// upright says so in its result's orientation.
    func copyingMetadata(from source: Image) -> Image {
        var copy = self
        copy.format = source.format
        copy.scale = source.scale
        if let loopCount = source.animation?.loopCount { copy.animation?.loopCount = loopCount }
        copy.isIncremental = source.isIncremental
        copy.isThumbnail = source.isThumbnail
        copy.isTransformed = true
        copy.metadata = source.metadata
        return copy
    }
}
