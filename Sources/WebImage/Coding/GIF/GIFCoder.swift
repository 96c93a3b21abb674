import Foundation

/// Decodes and encodes GIF (SDWebImage's `SDImageGIFCoder`).
///
/// Decoding is WebImage's own Swift parser and LZW decoder; frames are composited onto a full
/// canvas (see ``decode(_:options:)``). Encoding goes through giflib with a palette computed
/// per frame (see ``encode(_:as:options:)``).
///
/// SDWebImage's rules: the loop count comes from the NETSCAPE2.0 (or ANIMEXTS1.0) extension
/// and is 1 when it is missing (0 = forever); a frame's duration is its delay, and delays
/// below 0.011 s become 0.1 s. ``Image/hasAlpha`` and ``ImageInfo/hasAlpha`` are true when a
/// frame declares a transparent colour index or a frame leaves part of the canvas uncovered.
///
/// Damaged files: if the data ends or breaks inside a frame, that frame and any after it are
/// dropped as long as one complete frame precedes them; otherwise decoding throws
/// ``WebImageError/badImageData(_:underlying:)``. LZW data that ends early or holds a code not yet in the
/// table ends that frame's pixels there; the rest of its rectangle keeps the canvas beneath.
///
/// Progressive: while data arrives the incremental decoder shows the first frame with the
/// rows received so far (see ``makeIncrementalDecoder(options:)``).
public struct GIFCoder: ImageCoding, AnimatedImageCoding {
    public init() {}

    /// True for data starting with `GIF87a` or `GIF89a`.
    public func canDecode(_ data: Data) -> Bool {
        GIFContainer.hasSignature(data)
    }

    /// Canvas size, frame count and loop count from the block structure (no LZW decoding).
    public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        let container = try GIFContainer.parse(data)
        guard container.width > 0, container.height > 0 else {
            throw .badImageData(
                "the image claims a size of \(container.width)x\(container.height) pixels")
        }
        return ImageInfo(
            format: .gif, width: container.width, height: container.height,
            frameCount: container.frames.count, loopCount: container.loopCount,
            hasAlpha: container.hasAlpha)
    }

    /// True for ``ImageFormat/gif``.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .gif
    }

    /// A provider that composites frames on demand, keeping only the last canvas.
    /// ``ImageDecodeOptions/firstFrameOnly`` does not apply: the provider serves every frame.
    public func animatedImageProvider(for data: Data, options: ImageDecodeOptions) throws(WebImageError)
        -> any AnimatedImageProvider
    {
        try GIFAnimatedImageProvider(data: data, options: options)
    }
}
