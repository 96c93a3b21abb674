/// How a resize fits the source into the target size (SDWebImage's `SDImageScaleMode`; the raw
/// values are SDWebImage's and appear in transformer keys).
public enum ImageScaleMode: UInt, Sendable, CaseIterable {
    /// Stretch to exactly the target size, ignoring the aspect ratio.
    case fill = 0
    /// Scale to fit inside the target size, keeping the aspect ratio.
    case aspectFit = 1
    /// Scale to cover the target size, keeping the aspect ratio, then crop the overflow evenly.
    case aspectFill = 2
}

/// Resizes with a premultiplied Lanczos-3 filter (``ImageBitmap/resampled(to:filter:usesMultipleCores:)``), so
/// transparent edges never darken. Upscaling is allowed. An ``Image/deepBitmap`` is resized at
/// 16 bits (``ImageBitmap16/resampled(to:filter:)``) and the 8-bit result made from it.
///
/// Key: `SDImageResizingTransformer({%f,%f},%lu)` — width, height, scale mode.
///
/// Differences from SDWebImage, on purpose:
/// - `size` is in pixels; SDWebImage's is in points (multiplied by the image's scale).
/// - ``ImageScaleMode/aspectFit`` returns the fitted size with no margins (100×200 into 150×150
///   gives 75×150, the short side rounded up, as the decoders' thumbnails fit); SDWebImage
///   draws the fitted image centred on a `size` canvas with transparent margins. Pad afterwards
///   if you need the canvas.
/// - ``ImageScaleMode/aspectFill`` crops the centre region of the source that has the target's
///   aspect ratio (rounded to whole source pixels, so the aspect error is at most half a source
///   pixel), then resamples that region to exactly `size`. Cropping first means the work never
///   exceeds the source size, even for extreme aspect ratios.
public struct ImageResizingTransformer: ImageTransforming {
    /// The target size in pixels.
    public let size: PixelSize
    public let scaleMode: ImageScaleMode

    /// Non-positive sizes, or results above the pixel limit, throw when transforming.
    public init(size: PixelSize, scaleMode: ImageScaleMode = .fill) {
        self.size = size
        self.scaleMode = scaleMode
    }

    public var transformerKey: String {
        "SDImageResizingTransformer(\(TransformerKeyFormat.size(Double(size.width), Double(size.height))),"
            + "\(scaleMode.rawValue))"
    }

    /// The size of the result for a source of `sourceSize` pixels (as shown). Throws
    /// ``WebImageError/invalidArgument(_:underlying:)`` for a non-positive target size and
    /// ``WebImageError/imageTooLarge(width:height:limit:)`` above the pixel limit.
    public func outputSize(forSourceSize sourceSize: PixelSize) throws(WebImageError) -> PixelSize {
        guard size.isPositive else {
            throw .invalidArgument("resize size \(size) must be positive")
        }
        guard sourceSize.isPositive else {
            throw .invalidArgument("cannot resize a \(sourceSize) image")
        }
        let result: PixelSize
        switch scaleMode {
        case .fill, .aspectFill:
            result = size
        case .aspectFit:
            // Check the fitted area in Double first: a huge box would overflow the Int arithmetic.
            let scale = min(
                Double(size.width) / Double(sourceSize.width), Double(size.height) / Double(sourceSize.height))
            let area = max(Double(sourceSize.width) * scale, 1) * max(Double(sourceSize.height) * scale, 1)
            guard area <= Double(TransformSupport.maxPixelCount) else {
                throw .imageTooLarge(
                    width: size.width, height: size.height, limit: TransformSupport.maxPixelCount)
            }
            result = DecodeGeometry.scaledSize(
                sourceSize, fitting: size, preserveAspectRatio: true, shouldScaleUp: true)
        }
        try TransformSupport.checkResultSize(result, "resize")
        return result
    }

    /// The smallest aspect-preserving size at least as large as the result needs on both axes,
    /// or nil when that is the full size (the result is as large as or larger than the source).
    public func decodePixelSize(forSourceSize sourceSize: PixelSize) -> PixelSize? {
        guard size.isPositive, sourceSize.isPositive else { return nil }
        let sx = Double(size.width) / Double(sourceSize.width)
        let sy = Double(size.height) / Double(sourceSize.height)
        // Fill and aspect-fill need the source to cover the target on both axes; aspect-fit only
        // needs the fitted size.
        let scale = scaleMode == .aspectFit ? min(sx, sy) : max(sx, sy)
        guard scale < 1 else { return nil }
        let width = min(sourceSize.width, max(1, Int(clamping: Double(sourceSize.width) * scale, rounding: .up)))
        let height = min(sourceSize.height, max(1, Int(clamping: Double(sourceSize.height) * scale, rounding: .up)))
        let result = PixelSize(width: width, height: height)
        return result == sourceSize ? nil : result
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        if let deep = TransformSupport.uprightDeepBitmap(of: image) {
            let target = try outputSize(forSourceSize: deep.size)
            let region =
                scaleMode == .aspectFill
                ? Self.coverRegion(of: deep.size, aspectOf: target)
                : PixelRect(x: 0, y: 0, width: deep.width, height: deep.height)
            return TransformSupport.result(
                deep: try deep.cropped(to: region).resampled(to: target), from: image, hasAlpha: image.hasAlpha)
        }
        let source = TransformSupport.uprightBitmap(of: image)
        let target = try outputSize(forSourceSize: source.size)
        let resized: ImageBitmap
        switch scaleMode {
        case .fill, .aspectFit:
            try Self.checkIntermediate(target, source)
            resized = try source.resampled(to: target)
        case .aspectFill:
            let region = Self.coverRegion(of: source.size, aspectOf: target)
            let cropped = try source.cropped(to: region)
            try Self.checkIntermediate(target, cropped)
            resized = try cropped.resampled(to: target)
        }
        return TransformSupport.result(resized, from: image, hasAlpha: image.hasAlpha)
    }

    /// The centred region of a `source`-sized image with the aspect ratio of `target`.
    static func coverRegion(of source: PixelSize, aspectOf target: PixelSize) -> PixelRect {
        let sourceAspect = Double(source.width) / Double(source.height)
        let targetAspect = Double(target.width) / Double(target.height)
        if sourceAspect > targetAspect {
            // Wider than the target: keep the full height, crop the sides.
            let width = min(
                source.width,
                max(1, Int(clamping: Double(source.height) * targetAspect, rounding: .toNearestOrAwayFromZero)))
            return PixelRect(x: (source.width - width) / 2, y: 0, width: width, height: source.height)
        } else {
            let height = min(
                source.height,
                max(1, Int(clamping: Double(source.width) / targetAspect, rounding: .toNearestOrAwayFromZero)))
            return PixelRect(x: 0, y: (source.height - height) / 2, width: source.width, height: height)
        }
    }

    /// The resampler holds a float buffer of `target.width × source.height` pixels between its
    /// two passes; refuse sizes where that alone would exceed the pixel limit.
    private static func checkIntermediate(_ target: PixelSize, _ source: ImageBitmap) throws(WebImageError) {
        let intermediate = PixelSize(width: target.width, height: source.height)
        if intermediate.pixelCount > TransformSupport.maxPixelCount {
            throw .imageTooLarge(
                width: target.width, height: target.height, limit: TransformSupport.maxPixelCount)
        }
    }
}
