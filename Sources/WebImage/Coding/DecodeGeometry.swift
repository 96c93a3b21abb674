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
