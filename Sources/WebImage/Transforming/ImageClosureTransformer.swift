/// A transformer made of a key and a function, for transforms of your own.
///
/// The function receives the image upright (its orientation already applied) and may throw a
/// ``WebImageError``. A closure that throws says so, `{ image throws(WebImageError) in ... }`:
/// Swift infers `any Error` for a throwing closure without that annotation.
/// The result is marked transformed and, when ``preservesImageMetadata`` is true (the default),
/// takes the source's metadata.
public struct ImageClosureTransformer: ImageTransforming {
    public let transformerKey: String
    public let preservesImageMetadata: Bool
    private let body: @Sendable (Image) throws(WebImageError) -> Image

    /// `key` must identify what `body` does: images transformed with the same key share a cache entry.
    public init(
        key: String, preservesImageMetadata: Bool = true,
        _ body: @escaping @Sendable (Image) throws(WebImageError) -> Image
    ) {
        self.transformerKey = key
        self.preservesImageMetadata = preservesImageMetadata
        self.body = body
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        var upright = image
        if image.orientation != .up {
            upright.bitmap = TransformSupport.uprightBitmap(of: image)
            upright.orientation = .up
        }
        var result = try body(upright)
        if preservesImageMetadata { result = result.copyingMetadata(from: image) }
        result.isTransformed = true
        return result
    }
}
