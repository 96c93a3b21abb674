/// Mirrors horizontally, vertically or both (SDWebImage's `SDImageFlippingTransformer`).
/// An exact permutation of pixels, of the ``Image/deepBitmap`` too.
///
/// Key: `SDImageFlippingTransformer(%d,%d)` — horizontal, vertical.
public struct ImageFlippingTransformer: ImageTransforming {
    public let horizontal: Bool
    public let vertical: Bool

    public init(horizontal: Bool, vertical: Bool) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public var transformerKey: String {
        "SDImageFlippingTransformer(\(TransformerKeyFormat.flag(horizontal)),\(TransformerKeyFormat.flag(vertical)))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        // Mirroring is an EXIF orientation of its own; reuse that exact permutation.
        let orientation: ImageOrientation =
            switch (horizontal, vertical) {
            case (false, false): .up
            case (true, false): .upMirrored
            case (false, true): .downMirrored
            case (true, true): .down
            }
        if let deep = TransformSupport.uprightDeepBitmap(of: image) {
            return TransformSupport.result(
                deep: deep.applyingOrientation(orientation), from: image, hasAlpha: image.hasAlpha)
        }
        return TransformSupport.result(
            TransformSupport.uprightBitmap(of: image).applyingOrientation(orientation), from: image,
            hasAlpha: image.hasAlpha)
    }
}
