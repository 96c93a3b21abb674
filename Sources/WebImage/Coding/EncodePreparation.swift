import Foundation

extension ImageBitmap {
    /// The pixels an encoder writes: turned upright from `orientation`, and scaled down to fit
    /// the options' `maxPixelSize` when one is set. Shared by the coders that encode frames
    /// one by one (WebP, AVIF).
    func preparedForEncoding(orientation: ImageOrientation, options: ImageEncodeOptions) throws(WebImageError)
        -> ImageBitmap
    {
        let upright = applyingOrientation(orientation)
        guard options.maxPixelSize.isPositive else { return upright }
        let size = DecodeGeometry.scaledSize(
            upright.size, fitting: options.maxPixelSize, preserveAspectRatio: true, shouldScaleUp: false)
        return try upright.resampled(to: size)
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
