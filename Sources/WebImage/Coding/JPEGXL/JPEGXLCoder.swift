#if JPEGXL
    import CJXL
    import Foundation

    /// Decodes and encodes JPEG XL with libjxl: bare code streams and the ISOBMFF container, stills
    /// with or without alpha, any bit depth (delivered as 8-bit RGBA with straight alpha), grey and
    /// colour, and animations decoded eagerly or frame by frame, with their frame durations and loop
    /// count.
    ///
    /// With ``ImageDecodeOptions/preservesHighBitDepth``, a still (or the first frame, with
    /// ``ImageDecodeOptions/firstFrameOnly``) of more than 8 bits per sample also gives an
    /// ``Image/deepBitmap``; the frames of an animation stay 8-bit. An image with a deep bitmap is
    /// written at 16 bits (lossless: exactly).
    ///
    /// The header's EXIF-style orientation is applied unless
    /// ``ImageDecodeOptions/applyOrientation`` is off. libjxl cannot decode at a reduced size, so
    /// thumbnails are decoded whole and resampled. Lossy (XYB) files are decoded to sRGB; a file
    /// coded in its original colour space reports that space's ICC profile in ``Image/metadata``,
    /// with the container's `Exif` and `xml ` boxes when ``ImageDecodeOptions/readMetadata`` asks.
    /// libjxl runs on the calling thread, as the other coders do. Debian's libjxl 0.7 is built to
    /// print a line to standard error for each failure it meets in a broken file; the error thrown
    /// is still a typed ``WebImageError``, but those lines cannot be turned off from here.
    public struct JPEGXLCoder: AnimatedImageCoding {
        public init() {}

        /// Animations longer than this are refused before any frame is decoded.
        public static let maxFrameCount = 100_000

        public func canDecode(_ data: Data) -> Bool { ImageFormat(detecting: data) == .jpegXL }

        public func canEncode(to format: ImageFormat) -> Bool { format == .jpegXL }

        /// Size as shown (after the orientation), alpha, frame count, loop count and orientation,
        /// from the headers alone (no pixels decoded).
        public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
            let session = try JPEGXLDecoderSession(
                data: data, maxPixelCount: Int.max, maxFrameCount: Self.maxFrameCount)
            let swaps = session.orientation.swapsDimensions
            return ImageInfo(
                format: .jpegXL, width: swaps ? session.size.height : session.size.width,
                height: swaps ? session.size.width : session.size.height, frameCount: session.frameCount,
                loopCount: session.frameCount > 1 ? session.loopCount : 1, hasAlpha: session.hasAlpha,
                orientation: session.orientation)
        }

        /// Decodes a still, the first frame, every frame up front (while they fit
        /// ``ImageDecodeOptions/maxAnimationByteCount``) or a lazy provider.
        public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
            let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
            let session = try JPEGXLDecoderSession(
                data: data, maxPixelCount: options.maxPixelCount, maxFrameCount: Self.maxFrameCount,
                readsBoxes: !options.readMetadata.isDisjoint(with: [.exif, .xmp]))
            let orientation = session.orientation
            let target = DecodeGeometry.targetSize(
                storedSize: session.size, orientation: orientation, frameCount: session.frameCount, options: options)
            session.outputSize = target
            session.turn = options.applyOrientation ? orientation : .up
            let shown = options.applyOrientation ? ImageOrientation.up : orientation
            let out = target ?? session.size
            let metadata = ImageMetadata(
                exif: session.exif, iccProfile: session.iccProfile, xmp: session.xmp
            ).filtered(to: options.readMetadata)
            if session.frameCount == 1 || options.firstFrameOnly {
                if options.preservesHighBitDepth, session.bitsPerSample > 8 {
                    let finished = try DecodedPixels.deep(try session.deepFrame(at: 0)).finished(
                        orientation: orientation, frameCount: 1, options: options)
                    return finished.image(
                        scale: scale, format: .jpegXL, hasAlpha: session.hasAlpha, metadata: metadata)
                }
                return Image(
                    bitmap: try session.frame(at: 0), scale: scale, orientation: shown, format: .jpegXL,
                    hasAlpha: session.hasAlpha, isThumbnail: target != nil, metadata: metadata)
            }
            // The session moves into the provider, so the choice is made here rather than in a closure.
            let (animation, poster) =
                options.decodesFramesEagerly(frameSize: out, frameCount: session.frameCount)
                ? try ImageAnimation.decodedEagerly(frameCount: session.frameCount, loopCount: session.loopCount) {
                    index throws(WebImageError) in
                    ImageFrame(bitmap: try session.frame(at: index), duration: session.durations[index])
                }
                : try ImageAnimation.onDemand(DecoderSessionAnimationProvider(data: data, session: session))
            return Image(
                bitmap: poster, scale: scale, orientation: shown, format: .jpegXL, animation: animation,
                hasAlpha: session.hasAlpha, isThumbnail: target != nil, metadata: metadata)
        }

        /// A lazy frame provider, frames resampled to the thumbnail size the options ask for.
        public func animatedImageProvider(for data: Data, options: ImageDecodeOptions) throws(WebImageError)
            -> any AnimatedImageProvider
        {
            let session = try JPEGXLDecoderSession(
                data: data, maxPixelCount: options.maxPixelCount, maxFrameCount: Self.maxFrameCount)
            session.outputSize = DecodeGeometry.targetSize(
                storedSize: session.size, orientation: session.orientation, frameCount: session.frameCount,
                options: options)
            session.turn = options.applyOrientation ? session.orientation : .up
            return DecoderSessionAnimationProvider(data: data, session: session)
        }
    }
#endif
