import Foundation

/// Decodes and encodes one or more image formats (SDWebImage's `SDImageCoder`).
///
/// Coders are stateless values shared across threads. Every failure is a ``WebImageError``.
public protocol ImageCoding: Sendable {
    /// Whether this coder can decode `data` (usually a magic-byte check).
    func canDecode(_ data: Data) -> Bool
    /// Reads the header: size, frames, alpha and orientation, without decoding pixels.
    func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo
    /// Decodes `data`. Checks the pixel limit before allocating.
    func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image
    /// Whether this coder can encode to `format`.
    func canEncode(to format: ImageFormat) -> Bool
    /// Encodes `image` (every frame of an animation, unless the options say first frame only).
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError) -> Data
}

/// A coder that can show partial images while data arrives (`SDProgressiveImageCoder`).
public protocol ProgressiveImageCoding: ImageCoding {
    /// Whether `data` (possibly only its first bytes) can be decoded incrementally.
    func canDecodeIncrementally(_ data: Data) -> Bool
    /// A fresh decoder for one download.
    func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding
}

/// Decodes one image from a growing buffer. One instance per download; not shared.
public protocol IncrementalImageDecoding: AnyObject {
    /// Hands the decoder every byte received so far (not only the new ones, as SDWebImage does).
    func update(_ data: Data, isFinal: Bool)
    /// The best image the bytes so far allow, or nil while even the header is incomplete.
    /// Flagged ``Image/isIncremental`` until the final data is decoded.
    func currentImage() throws(WebImageError) -> Image?
}

/// A coder that can open an animation for frame-by-frame decoding (`SDAnimatedImageCoder`).
public protocol AnimatedImageCoding: ImageCoding {
    /// A provider that decodes frames of `data` on demand.
    func animatedImageProvider(for data: Data, options: ImageDecodeOptions) throws(WebImageError)
        -> any AnimatedImageProvider
}
