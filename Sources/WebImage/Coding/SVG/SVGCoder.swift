#if SVG
    import CRSVG
    import Foundation

    /// Decodes SVG by rasterising it with librsvg and cairo (SDWebImage's `SDImageSVGCoder`
    /// plug-in does it with Core SVG). It does not encode.
    ///
    /// The size is the document's own (``ImageInfo`` reports it): `width` and `height`, else the
    /// `viewBox`, with one side following the `viewBox`'s aspect ratio when only the other is
    /// given; a document with neither is refused. A ``ImageDecodeOptions/thumbnailPixelSize``
    /// renders at that size, larger than the document's too, as SDWebImage's SVG coder does:
    /// drawn at the size wanted, never scaled up from a small raster. The pixels come out with
    /// straight alpha; a document is drawn on a transparent canvas, so ``Image/hasAlpha`` and
    /// ``ImageInfo/hasAlpha`` are always true (an image service then writes PNG, not JPEG, when
    /// no format is asked for, as imgproxy does).
    ///
    /// Nothing outside the document is read: librsvg is given no base address, so it loads no
    /// `http:`, `https:` or `file:` reference, and `data:` addresses must hold images or fonts.
    /// Before librsvg sees a document, it is checked for what librsvg 2.54 does not survive (see
    /// the entity and `kernelMatrix` rules in `CodersAndFormats.md`), and ``Limits`` bound its
    /// size and its time. Every failure is ``WebImageError/Code/badImageData``, but a rendering
    /// larger than ``ImageDecodeOptions/maxPixelCount``, which is
    /// ``WebImageError/Code/imageTooLarge`` before any pixel is allocated.
    public struct SVGCoder: ImageCoding {
        /// What one document may cost.
        public struct Limits: Sendable, Equatable {
            /// Larger documents are refused unread (imgproxy's limit, 10 MiB).
            public var maxDocumentBytes = 10 << 20
            /// How long reading and rendering one document may take.
            public var timeLimit: Duration = .seconds(5)
            /// Renders past their time limit that may still be running (they cannot be stopped,
            /// only left to finish) before this coder refuses new documents until one ends.
            public var maxOverrunningRenders = 2

            public init() {}
        }

        /// cairo's largest image surface, a side.
        public static let maxSide = 32767

        public let limits: Limits
        private let worker = SVGWorker()

        public init(limits: Limits = Limits()) { self.limits = limits }

        public func canDecode(_ data: Data) -> Bool { data.withUnsafeBytes { SVGSniffing.isSVG($0) } }

        public func canEncode(to format: ImageFormat) -> Bool { false }

        /// The document's own size, read without rendering.
        public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
            let size = try load(data) { handle throws(WebImageError) in try handle.intrinsicSize().pixelSize() }
            return ImageInfo(format: .svg, width: size.width, height: size.height, hasAlpha: true)
        }

        public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
            let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
            let (bitmap, natural) = try load(data) { handle throws(WebImageError) in
                let intrinsic = try handle.intrinsicSize()
                let natural = try intrinsic.pixelSize()
                let size = SVGIntrinsicSize.renderSize(natural, options: options)
                try DecodeGeometry.checkPixelLimit(width: size.width, height: size.height, options: options)
                guard size.width <= Self.maxSide, size.height <= Self.maxSide else {
                    throw .badImageData("the SVG renders at \(size) pixels; cairo draws at most \(Self.maxSide) a side")
                }
                let bitmap = try ImageBitmap(width: size.width, height: size.height) { buffer throws(WebImageError) in
                    try handle.render(into: UnsafeMutableRawBufferPointer(buffer), size: size, natural: intrinsic)
                    SVGPixels.straightRGBA(fromPremultipliedARGB: buffer)
                }
                return (bitmap, natural)
            }
            return Image(
                bitmap: bitmap, scale: scale, format: .svg, hasAlpha: true, isThumbnail: bitmap.size != natural)
        }

        public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
            -> Data
        {
            throw .unsupportedFormat(format)
        }

        /// Checks `data` and writes out its entities (``SVGEntityInlining``), then parses it on a
        /// worker thread within the time limit and runs `body` there with the parsed document.
        private func load<Output: Sendable>(
            _ data: Data, _ body: @escaping @Sendable (SVGHandle) throws(WebImageError) -> Output
        ) throws(WebImageError) -> Output {
            guard data.count <= limits.maxDocumentBytes else {
                throw .badImageData("the SVG is \(data.count) bytes; the limit is \(limits.maxDocumentBytes)")
            }
            let document = try data.withUnsafeBytesTyped { bytes throws(WebImageError) in
                guard SVGSniffing.isSVG(bytes) else { throw .badImageData("the data is not an SVG document") }
                try SVGPreflight.check(bytes)
                return try SVGEntityInlining.inlined(bytes) ?? data
            }
            return try worker.run(timeLimit: limits.timeLimit, maxOverrunning: limits.maxOverrunningRenders) {
                cancellable in
                Result { () throws(WebImageError) -> Output in
                    try document.withUnsafeBytesTyped { bytes throws(WebImageError) in
                        try body(SVGHandle(bytes, cancellable: cancellable))
                    }
                }
            }
        }
    }
#endif
