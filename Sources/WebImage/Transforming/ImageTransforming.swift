/// Turns one image into another: resize, crop, round corners, ... (SDWebImage's `SDImageTransformer`).
///
/// A transformer is a value shared across threads. Its ``transformerKey`` is appended to the
/// cache key of every image it produces (see ``CacheKeys/transformed(_:transformerKey:)``), so
/// two transformers that produce different pixels must have different keys, and the same
/// transformer must always give the same key.
public protocol ImageTransforming: Sendable {
    /// Identifies this transformer and its parameters, in SDWebImage's format where it has one
    /// (for example `SDImageResizingTransformer({100.000000,100.000000},1)`).
    var transformerKey: String { get }
    /// Whether the result keeps the source's metadata (format, loop count, scale). Default true;
    /// a pipeline copies metadata per step and reports false itself, as SDWebImage's does.
    var preservesImageMetadata: Bool { get }
    /// Transforms a still image (for an animation, the manager transforms frame by frame only
    /// with ``WebImageOptions/transformAnimatedImage``, through
    /// ``transformedImage(_:forKey:animated:maxAnimationByteCount:)``). `key` is the source's cache key.
    ///
    /// The built-in transformers work on the pixels as shown (``Image/orientation`` applied first)
    /// and return an upright image marked ``Image/isTransformed``. Bad parameters throw
    /// ``WebImageError/invalidArgument(_:underlying:)`` and results above the pixel limit
    /// ``WebImageError/imageTooLarge(width:height:limit:)``; never traps.
    ///
    /// Of the built-in transformers, crop, flip, quarter-turn rotation and resize keep an
    /// ``Image/deepBitmap`` (transformed at 16 bits, with ``Image/bitmap`` made from it); every
    /// other one works on ``Image/bitmap`` alone and returns no deep bitmap, so the two never
    /// disagree. A transformer of your own drops it the same way when it sets ``Image/bitmap``.
    func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image
    /// The smallest size a source of `sourceSize` pixels may be decoded at (aspect ratio kept)
    /// without changing this transformer's result, so a decoder can shrink first (JPEG DCT
    /// scaling) and the transformer resamples less. Nil (the default) means full size.
    /// `sourceSize` is the size as shown (after orientation, as ``ImageInfo`` reports it); pass
    /// the result as ``ImageDecodeOptions/thumbnailPixelSize``.
    func decodePixelSize(forSourceSize sourceSize: PixelSize) -> PixelSize?
}

extension ImageTransforming {
    public var preservesImageMetadata: Bool { true }
    public func decodePixelSize(forSourceSize sourceSize: PixelSize) -> PixelSize? { nil }
}
