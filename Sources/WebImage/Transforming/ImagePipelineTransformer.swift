/// Applies transformers in order (SDWebImage's `SDImagePipelineTransformer`).
///
/// Key: the transformers' keys joined by `-`, or an empty string for no transformers.
///
/// Metadata is copied step by step, following each step's own ``ImageTransforming/preservesImageMetadata``,
/// so the pipeline reports false itself, as SDWebImage's does.
public struct ImagePipelineTransformer: ImageTransforming {
    public let transformers: [any ImageTransforming]

    public init(_ transformers: [any ImageTransforming]) {
        self.transformers = transformers
    }

    public var transformerKey: String {
        transformers.map(\.transformerKey).joined(separator: "-")
    }

    public var preservesImageMetadata: Bool { false }

    /// The first step's hint: later steps work on its output, whose size does not depend on
    /// the decode size.
    public func decodePixelSize(forSourceSize sourceSize: PixelSize) -> PixelSize? {
        transformers.first?.decodePixelSize(forSourceSize: sourceSize)
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        var current = image
        for transformer in transformers {
            var next = try transformer.transformedImage(current, forKey: key)
            if transformer.preservesImageMetadata {
                next = next.copyingMetadata(from: current)
            }
            next.isTransformed = true
            current = next
        }
        return current
    }
}
