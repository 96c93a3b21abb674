#if AVIF
    import CAVIF
    import Foundation

    /// Decodes and encodes AVIF with libavif (dav1d or libaom to decode, libaom to encode), as
    /// SDWebImage's `SDImageAVIFCoder` plug-in does: stills with or without alpha, 8-, 10- and
    /// 12-bit pictures (delivered as 8-bit RGBA), and image sequences (animated AVIF) decoded
    /// eagerly or frame by frame.
    ///
    /// With ``ImageDecodeOptions/preservesHighBitDepth``, a 10- or 12-bit still (or the first
    /// frame, with ``ImageDecodeOptions/firstFrameOnly``) also gives an ``Image/deepBitmap``; the
    /// frames of a sequence stay 8-bit. An image with a deep bitmap is written at 10 bits.
    ///
    /// The container's rotation and mirroring (`irot`, `imir`) become the image's orientation and
    /// are applied unless ``ImageDecodeOptions/applyOrientation`` is off. libavif cannot decode at a
    /// reduced size, so thumbnails are decoded whole and resampled. Sequences loop forever: libavif
    /// 0.11 does not read a repetition count.
    public struct AVIFCoder: AnimatedImageCoding {
        public init() {}

        /// Sequences longer than this are refused before any frame is decoded.
        public static let maxFrameCount = 100_000

        public func canDecode(_ data: Data) -> Bool { ImageFormat(detecting: data) == .avif }

        public func canEncode(to format: ImageFormat) -> Bool { format == .avif }

        /// Size as shown (after `irot`/`imir`), alpha, frame count and orientation, from the
        /// container alone (no AV1 decoding).
        public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
            let session = try AVIFDecoderSession(data: data, maxPixelCount: Int.max, maxFrameCount: Self.maxFrameCount)
            let orientation = session.orientation
            let swaps = orientation.swapsDimensions
            return ImageInfo(
                format: .avif, width: swaps ? session.size.height : session.size.width,
                height: swaps ? session.size.width : session.size.height, frameCount: session.frameCount,
                loopCount: 0, hasAlpha: session.hasAlpha, orientation: orientation)
        }

        /// Decodes a still, the first frame, every frame up front (while they fit
        /// ``ImageDecodeOptions/maxAnimationByteCount``) or a lazy provider.
        public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
            if options.prefersEmbeddedThumbnail, let thumbnail = try EmbeddedThumbnails.decode(data, options: options) {
                return thumbnail
            }
            let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
            let session = try AVIFDecoderSession(
                data: data, maxPixelCount: options.maxPixelCount, maxFrameCount: Self.maxFrameCount)
            let orientation = session.orientation
            let target = DecodeGeometry.targetSize(
                storedSize: session.size, orientation: orientation, frameCount: session.frameCount, options: options)
            session.outputSize = target
            let out = target ?? session.size
            if session.frameCount == 1 || options.firstFrameOnly {
                if options.preservesHighBitDepth, session.bitDepth > 8 {
                    let finished = try DecodedPixels.deep(try session.deepFrame(at: 0)).finished(
                        orientation: orientation, frameCount: 1, options: options)
                    return finished.image(
                        scale: scale, format: .avif, hasAlpha: session.hasAlpha,
                        metadata: session.metadata(options.readMetadata))
                }
                var bitmap = try session.frame(at: 0)
                var shown = orientation
                if options.applyOrientation && orientation != .up {
                    bitmap = bitmap.applyingOrientation(orientation)
                    shown = .up
                }
                return Image(
                    bitmap: bitmap, scale: scale, orientation: shown, format: .avif, hasAlpha: session.hasAlpha,
                    isThumbnail: target != nil, metadata: session.metadata(options.readMetadata))
            }
            let metadata = session.metadata(options.readMetadata)
            // The session moves into the provider, so the choice is made here rather than in a closure.
            let (animation, poster) =
                options.decodesFramesEagerly(frameSize: out, frameCount: session.frameCount)
                ? try ImageAnimation.decodedEagerly(frameCount: session.frameCount, loopCount: 0) {
                    index throws(WebImageError) in
                    ImageFrame(bitmap: try session.frame(at: index), duration: session.durations[index])
                }
                : try ImageAnimation.onDemand(DecoderSessionAnimationProvider(data: data, session: session))
            return Image(
                bitmap: poster, scale: scale, format: .avif, animation: animation, hasAlpha: session.hasAlpha,
                isThumbnail: target != nil, metadata: metadata)
        }

        /// A lazy frame provider, frames resampled to the thumbnail size the options ask for.
        public func animatedImageProvider(for data: Data, options: ImageDecodeOptions) throws(WebImageError)
            -> any AnimatedImageProvider
        {
            let session = try AVIFDecoderSession(
                data: data, maxPixelCount: options.maxPixelCount, maxFrameCount: Self.maxFrameCount)
            session.outputSize = DecodeGeometry.targetSize(
                storedSize: session.size, orientation: .up, frameCount: session.frameCount, options: options)
            return DecoderSessionAnimationProvider(data: data, session: session)
        }
    }
#endif
