import Foundation

/// Crops to a rectangle, clamped to the image (SDWebImage's `SDImageCroppingTransformer`).
///
/// Key: `SDImageCroppingTransformer({%f,%f,%f,%f})` — x, y, width, height.
///
/// The rectangle is in pixels of the image as shown (SDWebImage's is in points). A fractional
/// rectangle grows to the whole pixels it touches, as `CGRectIntegral` does, then is clipped to
/// the image. A rectangle that is empty after clipping — a non-positive or non-finite size, or
/// one entirely outside — throws ``WebImageError/invalidArgument(_:underlying:)``.
/// An ``Image/deepBitmap`` is cropped too.
public struct ImageCroppingTransformer: ImageTransforming {
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(rect: PixelRect) {
        self.init(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
    }

    public var transformerKey: String {
        let values = [x, y, width, height].map(TransformerKeyFormat.number).joined(separator: ",")
        return "SDImageCroppingTransformer({\(values)})"
    }

    /// The whole-pixel rectangle this crop takes from an image of `imageSize` pixels.
    public func pixelRect(in imageSize: PixelSize) throws(WebImageError) -> PixelRect {
        guard [x, y, width, height].allSatisfy(\.isFinite) else {
            throw .invalidArgument(
                "crop rectangle \(x),\(y),\(width),\(height) must be finite")
        }
        guard width > 0, height > 0 else {
            throw .invalidArgument("crop size \(width)x\(height) must be positive")
        }
        func clamped(_ value: Double, _ limit: Int) -> Int { min(max(Int(clamping: value), 0), limit) }
        let left = clamped(x.rounded(.down), imageSize.width)
        let top = clamped(y.rounded(.down), imageSize.height)
        let right = clamped((x + width).rounded(.up), imageSize.width)
        let bottom = clamped((y + height).rounded(.up), imageSize.height)
        guard right > left, bottom > top else {
            throw .invalidArgument(
                "crop rectangle \(x),\(y),\(width),\(height) lies outside the \(imageSize) image")
        }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        if let deep = TransformSupport.uprightDeepBitmap(of: image) {
            return TransformSupport.result(
                deep: try deep.cropped(to: pixelRect(in: deep.size)), from: image, hasAlpha: image.hasAlpha)
        }
        let source = TransformSupport.uprightBitmap(of: image)
        let cropped = try source.cropped(to: pixelRect(in: source.size))
        return TransformSupport.result(cropped, from: image, hasAlpha: image.hasAlpha)
    }
}
