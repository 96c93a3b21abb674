import Foundation

extension ImageBitmap {
    /// The pixels an encoder writes: turned upright from `orientation`, and scaled down to fit
    /// the options' `maxPixelSize` when one is set. Shared by the coders that encode frames
    /// one by one (WebP, AVIF).
    func preparedForEncoding(orientation: ImageOrientation, options: ImageEncodeOptions) throws(WebImageError)
        -> ImageBitmap
    {
        let upright = applyingOrientation(orientation)
        guard let size = options.fittedSize(upright.size) else { return upright }
        return try upright.resampled(to: size)
    }
}

extension ImageEncodeOptions {
    /// The size pixels of `size` are written at: scaled down to fit ``maxPixelSize`` (keeping the
    /// aspect ratio), or nil when none is set.
    func fittedSize(_ size: PixelSize) -> PixelSize? {
        guard maxPixelSize.isPositive else { return nil }
        return DecodeGeometry.scaledSize(size, fitting: maxPixelSize, preserveAspectRatio: true, shouldScaleUp: false)
    }
}

extension Image {
    /// What a multi-frame encoder writes: every frame of an animation with its duration (unless
    /// ``ImageEncodeOptions/firstFrameOnly``), or the one still bitmap with duration 0, each
    /// prepared as ``ImageBitmap/preparedForEncoding(orientation:options:)`` says.
    func framesForEncoding(_ options: ImageEncodeOptions) throws(WebImageError)
        -> [(bitmap: ImageBitmap, duration: Double)]
    {
        guard let animation, animation.frameCount > 1, !options.firstFrameOnly else {
            return [(try bitmap.preparedForEncoding(orientation: orientation, options: options), 0)]
        }
        return try (0..<animation.frameCount).map { index throws(WebImageError) in
            let frame = try animation.frame(at: index)
            return (try frame.bitmap.preparedForEncoding(orientation: orientation, options: options), frame.duration)
        }
    }
}

extension ImageBitmap16 {
    /// The deep pixels an encoder writes, prepared as ``ImageBitmap/preparedForEncoding(orientation:options:)``
    /// prepares 8-bit ones.
    func preparedForEncoding(orientation: ImageOrientation, options: ImageEncodeOptions) throws(WebImageError)
        -> ImageBitmap16
    {
        let upright = applyingOrientation(orientation)
        guard let size = options.fittedSize(upright.size) else { return upright }
        return try upright.resampled(to: size)
    }
}

extension Image {
    /// The deep pixels a still encoder that stores more than 8 bits writes (prepared for encoding),
    /// or nil when the image has none or is an animation to be encoded with its frames.
    func deepBitmapForEncoding(_ options: ImageEncodeOptions) throws(WebImageError) -> ImageBitmap16? {
        guard let deepBitmap, !isAnimated || options.firstFrameOnly else { return nil }
        return try deepBitmap.preparedForEncoding(orientation: orientation, options: options)
    }
}
