import CWebP
import Foundation

/// Decodes and encodes WebP with libwebp, libwebpdemux and libwebpmux (SDWebImage's
/// `SDImageWebPCoder`): still, animated (eager or lazy frames) and incremental decoding;
/// lossy, lossless and animated encoding.
///
/// Frame durations follow SDWebImageWebPCoder: 10 ms or less shows for 100 ms. Decoded images
/// are `.up`: an EXIF chunk's orientation is not applied, as SDWebImageWebPCoder also makes its
/// images `.up`. Lossless encoding ignores `compressionQuality` and `maxFileSize`.
public struct WebPCoder: ProgressiveImageCoding, AnimatedImageCoding {
    public init() {}

    public func canDecode(_ data: Data) -> Bool { ImageFormat(detecting: data) == .webp }

    public func canEncode(to format: ImageFormat) -> Bool { format == .webp }

    public func canDecodeIncrementally(_ data: Data) -> Bool { canDecode(data) }

    /// Size, alpha, frame count and loop count (the last two from the demuxer, which needs the
    /// whole file for an animation).
    public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        let container = try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try WebPContainer(bytes: bytes) }
        return ImageInfo(
            format: .webp, width: container.width, height: container.height,
            frameCount: container.frameCount, loopCount: container.loopCount, hasAlpha: container.hasAlpha)
    }

    /// Decodes a still image straight into Swift-owned memory, or an animation (eager frames
    /// while they fit ``ImageDecodeOptions/maxAnimationByteCount``, else lazy). Thumbnails of
    /// stills use libwebp's scaled decoding; animation frames are resampled.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
        let features = try data.withUnsafeBytesTyped { bytes throws(WebImageError) in
            try WebPContainer.features(of: bytes)
        }
        let canvas = PixelSize(width: Int(features.width), height: Int(features.height))
        try DecodeGeometry.checkPixelLimit(width: canvas.width, height: canvas.height, options: options)
        let hasAlpha = features.has_alpha != 0
        guard features.has_animation != 0 else {
            let target = DecodeGeometry.targetSize(
                storedSize: canvas, orientation: .up, frameCount: 1, options: options)
            let bitmap = try data.withUnsafeBytesTyped { bytes throws(WebImageError) in
                try Self.decodeStill(bytes, size: canvas, outputSize: target)
            }
            let metadata = data.withUnsafeBytes { WebPMetadata.read(options.readMetadata, in: $0) }
            return Image(
                bitmap: bitmap, scale: scale, format: .webp, hasAlpha: hasAlpha, isThumbnail: target != nil,
                metadata: metadata)
        }
        return try decodeAnimation(data, canvas: canvas, scale: scale, options: options)
    }

    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        WebPIncrementalDecoder(options: options)
    }

    /// A lazy frame provider; the animation's canvas must be within the pixel limit. Frames are
    /// resampled to the thumbnail size the options ask for.
    public func animatedImageProvider(for data: Data, options: ImageDecodeOptions) throws(WebImageError)
        -> any AnimatedImageProvider
    {
        let container = try data.withUnsafeBytesTyped { raw throws(WebImageError) in
            try WebPContainer(bytes: raw) { width, height throws(WebImageError) in
                try DecodeGeometry.checkPixelLimit(width: width, height: height, options: options)
            }
        }
        let canvas = PixelSize(width: container.width, height: container.height)
        let target = DecodeGeometry.targetSize(
            storedSize: canvas, orientation: .up, frameCount: container.frameCount, options: options)
        return WebPAnimationProvider(data: data, container: container, outputSize: target)
    }

    /// Decodes a still (VP8 or VP8L, possibly in a VP8X container) into a new bitmap, scaled by
    /// libwebp to `outputSize` when given.
    static func decodeStill(
        _ bytes: UnsafeRawBufferPointer, size: PixelSize, outputSize: PixelSize?
    ) throws(WebImageError) -> ImageBitmap {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .badImageData("libwebp's decoder version does not match its headers")
        }
        let out = outputSize ?? size
        if let outputSize {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(outputSize.width)
            config.options.scaled_height = Int32(outputSize.height)
        }
        config.options.use_threads = useThreads ? 1 : 0
        return try ImageBitmap(width: out.width, height: out.height) { buffer throws(WebImageError) in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(out.width * 4)
            config.output.u.RGBA.size = buffer.count
            let status = WebPDecode(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
            WebPFreeDecBuffer(&config.output)
            guard status == VP8_STATUS_OK else { throw WebPStatus.error(status, while: "decoding the WebP image") }
        }
    }

    /// Whether still decodes let libwebp filter on a second thread. Off: it gains nothing on a
    /// still decode (Benchmarks/README.md), and a server decoding several images at once already
    /// keeps every core busy.
    static let useThreads = false
}
