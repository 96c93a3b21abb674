#if TIFF
    import CWebImageShims
    import Foundation

    /// Decodes TIFF with libtiff's RGBA interface (strips and tiles; none, LZW, deflate, PackBits
    /// and JPEG compression; RGB, palette, gray, YCbCr and CMYK; 1- to 16-bit samples, delivered as
    /// 8-bit RGBA with straight alpha) and encodes RGB and RGBA, deflate-compressed. The pages of a
    /// multi-page file are its frames, as ImageIO counts them, when they all share the first page's
    /// size (otherwise the first page alone); pages have no duration.
    ///
    /// The Orientation tag is applied unless ``ImageDecodeOptions/applyOrientation`` is off. The
    /// first page's ICC profile and XMP packet are read into ``Image/metadata``.
    /// With ``ImageDecodeOptions/preservesHighBitDepth``, a single page (or the first, with
    /// ``ImageDecodeOptions/firstFrameOnly``) of 16-bit or 32-bit float samples, in strips,
    /// contiguous, gray or RGB with or without alpha, also gives an ``Image/deepBitmap``: floats
    /// are linear light, encoded with the sRGB curve (clamped to 0…1, NaN read as 0); other deep
    /// layouts (tiles, separate planes, CMYK) decode at 8 bits as before. It is encoded at 16 bits.
    /// Thumbnails are decoded whole, then resampled. 8-bit RGBA strips with unassociated alpha are
    /// read exactly as stored; other layouts with alpha go through libtiff's RGBA interface, which
    /// premultiplies, so their colour is rounded under partial alpha and lost under alpha 0.
    public struct TIFFCoder: ImageCoding {
        public init() {}

        public func canDecode(_ data: Data) -> Bool { ImageFormat(detecting: data) == .tiff }

        public func canEncode(to format: ImageFormat) -> Bool { format == .tiff }

        /// Size as shown, alpha, orientation and page count, from the first page's tags.
        public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
            let file = try TIFFFile(data: data, maxAllocation: Self.maxAllocation(ImageDecodeOptions()))
            let page = try file.page(0)
            let orientation = ImageOrientation(exifValue: Int(page.orientation))
            let swaps = orientation.swapsDimensions
            return ImageInfo(
                format: .tiff, width: Int(swaps ? page.height : page.width),
                height: Int(swaps ? page.width : page.height),
                frameCount: file.pageCount, loopCount: 0, hasAlpha: page.has_alpha != 0, orientation: orientation)
        }

        public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
            let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
            let file = try TIFFFile(data: data, maxAllocation: Self.maxAllocation(options))
            if options.preservesHighBitDepth, options.firstFrameOnly || file.pageCount == 1,
                let (deep, page) = try file.deepPixels(ofPage: 0, maxPixelCount: options.maxPixelCount)
            {
                let finished = try DecodedPixels.deep(deep).finished(
                    orientation: ImageOrientation(exifValue: Int(page.orientation)), frameCount: 1, options: options)
                return finished.image(
                    scale: scale, format: .tiff, hasAlpha: page.has_alpha != 0,
                    metadata: file.currentPageMetadata(options.readMetadata))
            }
            let (first, page) = try file.pixels(ofPage: 0, maxPixelCount: options.maxPixelCount)
            let metadata = file.currentPageMetadata(options.readMetadata)
            let orientation = ImageOrientation(exifValue: Int(page.orientation))
            let pages = options.firstFrameOnly ? 1 : try Self.sameSizedPageCount(file, like: page)
            let target = DecodeGeometry.targetSize(
                storedSize: first.size, orientation: orientation, frameCount: pages, options: options)
            let shown = options.applyOrientation ? ImageOrientation.up : orientation
            let finish = { (bitmap: ImageBitmap) throws(WebImageError) -> ImageBitmap in
                let sized = try target.map { size throws(WebImageError) in try bitmap.resampled(to: size) } ?? bitmap
                return options.applyOrientation ? sized.applyingOrientation(orientation) : sized
            }
            let poster = try finish(first)
            guard pages > 1, options.decodesFramesEagerly(frameSize: target ?? first.size, frameCount: pages) else {
                return Image(
                    bitmap: poster, scale: scale, orientation: shown, format: .tiff, hasAlpha: page.has_alpha != 0,
                    isThumbnail: target != nil, metadata: metadata)
            }
            var frames = [ImageFrame(bitmap: poster, duration: 0)]
            for index in 1..<pages {
                let (bitmap, _) = try file.pixels(ofPage: index, maxPixelCount: options.maxPixelCount)
                frames.append(ImageFrame(bitmap: try finish(bitmap), duration: 0))
            }
            return Image(
                bitmap: poster, scale: scale, orientation: shown, format: .tiff,
                animation: ImageAnimation(frames: frames, loopCount: 0), hasAlpha: page.has_alpha != 0,
                isThumbnail: target != nil, metadata: metadata)
        }

        /// How many pages from the first share its size (a page that does not, and all after it,
        /// are left out).
        static func sameSizedPageCount(_ file: TIFFFile, like first: cwi_tiff_page) throws(WebImageError) -> Int {
            var count = 1
            while count < file.pageCount {
                guard let page = try? file.page(count), page.width == first.width, page.height == first.height else {
                    break
                }
                count += 1
            }
            return count
        }

        /// The largest single allocation libtiff may make: a strip or tile buffer for a picture at
        /// the pixel limit, 16-bit RGBA, plus slack.
        static func maxAllocation(_ options: ImageDecodeOptions) -> Int {
            let (bytes, overflow) = options.maxPixelCount.multipliedReportingOverflow(by: 8)
            return overflow ? Int(Int32.max) : min(max(bytes, 16 << 20), 4 << 30)
        }
    }
#endif
