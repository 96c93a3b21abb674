#if HEIC
    import CHEIF
    import Foundation

    /// Decodes and encodes HEIC and HEIF stills with libheif (libde265 to decode, x265 to encode),
    /// as SDWebImage's `SDImageHEICCoder` does through ImageIO: the primary image, with or
    /// without alpha, 8-bit or 10- and 12-bit (delivered as 8-bit RGBA with straight alpha; with
    /// ``ImageDecodeOptions/preservesHighBitDepth`` also as an ``Image/deepBitmap``). Encoding
    /// writes 8 bits, even from a deep bitmap.
    ///
    /// Files whose major brand is `heic`, `heix`, `hevc`, `hevx`, `heim` or `heis` are
    /// ``ImageFormat/heic``; `mif1` and `msf1` ones are ``ImageFormat/heif`` (see
    /// ``ImageFormat/init(detecting:)``). The container's rotation and mirroring (`irot`, `imir`)
    /// become the image's orientation and are applied unless
    /// ``ImageDecodeOptions/applyOrientation`` is off; its cropping (`clap`) always is. libheif
    /// cannot decode at a reduced size, so thumbnails are decoded whole and resampled. Image
    /// sequences and the other items a file may hold (depth maps) are not read: the primary image
    /// is the picture, or its embedded thumbnail with
    /// ``ImageDecodeOptions/prefersEmbeddedThumbnail``.
    public struct HEICCoder: ImageCoding {
        public init() {}

        public func canDecode(_ data: Data) -> Bool {
            let format = ImageFormat(detecting: data)
            return format == .heic || format == .heif
        }

        /// HEIC and HEIF both mean an HEVC-coded HEIF file, which is what this coder writes.
        public func canEncode(to format: ImageFormat) -> Bool { format == .heic || format == .heif }

        /// Size as shown (after `clap`, `irot` and `imir`), alpha and orientation, from the container
        /// alone (no HEVC decoding).
        public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
            let format = Self.format(of: data)
            return try HEICDecoderSession.open(data, maxPixelCount: Int.max) { session in
                ImageInfo(
                    format: format, width: session.shownSize.width, height: session.shownSize.height, frameCount: 1,
                    loopCount: 0, hasAlpha: session.hasAlpha, orientation: session.orientation)
            }
        }

        /// Decodes the primary image (or its embedded thumbnail, with
        /// ``ImageDecodeOptions/prefersEmbeddedThumbnail``), at the thumbnail size the options ask
        /// for (resampled after a full decode).
        public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
            let decoded = try Self.decode(
                data, options: options, format: Self.format(of: data), onlyEmbeddedThumbnail: false)
            guard let decoded else { throw .badImageData("libheif decoded no image") }
            return decoded
        }

        /// Decodes a HEIF-structured file (HEIC, or AVIF through libheif's AV1 decoder) with
        /// libheif; with `onlyEmbeddedThumbnail`, nil when the primary image has no thumbnail.
        static func decode(
            _ data: Data, options: ImageDecodeOptions, format: ImageFormat, onlyEmbeddedThumbnail: Bool
        ) throws(WebImageError) -> Image? {
            let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
            let thumbnail = options.prefersEmbeddedThumbnail || onlyEmbeddedThumbnail
            return try HEICDecoderSession.open(data, maxPixelCount: options.maxPixelCount, thumbnail: thumbnail) {
                session throws(WebImageError) -> Image? in
                if onlyEmbeddedThumbnail && !session.isEmbeddedThumbnail { return nil }
                let metadata = session.metadata(options.readMetadata)
                if options.preservesHighBitDepth, session.bitDepth > 8 {
                    var deep = try session.decodeUprightDeep()
                    var orientation = ImageOrientation.up
                    if !options.applyOrientation && session.orientation != .up {
                        deep = deep.applyingOrientation(session.orientation.inverse)
                        orientation = session.orientation
                    }
                    var image = try DecodedPixels.deep(deep).finished(
                        orientation: orientation, frameCount: 1, options: options
                    )
                    .image(scale: scale, format: format, hasAlpha: session.hasAlpha, metadata: metadata)
                    image.isThumbnail = image.isThumbnail || session.isEmbeddedThumbnail
                    return image
                }
                var bitmap = try session.decodeUpright()
                var orientation = ImageOrientation.up
                if !options.applyOrientation && session.orientation != .up {
                    // libheif turned the pixels upright; undo that to hand out the stored ones.
                    bitmap = bitmap.applyingOrientation(session.orientation.inverse)
                    orientation = session.orientation
                }
                let target = DecodeGeometry.targetSize(
                    storedSize: bitmap.size, orientation: orientation, frameCount: 1, options: options)
                if let target { bitmap = try bitmap.resampled(to: target) }
                return Image(
                    bitmap: bitmap, scale: scale, orientation: orientation, format: format, hasAlpha: session.hasAlpha,
                    isThumbnail: target != nil || session.isEmbeddedThumbnail, metadata: metadata)
            }
        }

        /// ``ImageFormat/heif`` for a `mif1`/`msf1` file, ``ImageFormat/heic`` otherwise.
        static func format(of data: Data) -> ImageFormat {
            ImageFormat(detecting: data) == .heif ? .heif : .heic
        }
    }
#endif
