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
