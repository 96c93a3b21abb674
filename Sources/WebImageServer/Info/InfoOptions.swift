#if Server
    import WebImage

    /// What one `/info` request asks for, in imgproxy Pro's terms (its "Getting an image info"
    /// options): which fields the JSON answer holds, and the limits and cache options the request
    /// carries. Defaults are imgproxy's: size, format, dimensions, EXIF, IPTC and XMP on; the
    /// fields that need the whole image decoded off.
    ///
    /// Left out, as they need video or detection models: `video_meta` (an image has none, so it
    /// is accepted and adds nothing), `detect_objects`, `classify`, `objects_position` with the
    /// `obj` gravities (refused when asked for).
    public struct InfoOptions: Sendable, Equatable {
        /// The checksums `calc_hashsums` and `hashsum` know.
        public enum HashsumType: String, Sendable, CaseIterable {
            case md5, sha1, sha256, sha512
        }

        /// `size`: the source's length in bytes.
        public var size = true
        /// `format`: its format and MIME type.
        public var format = true
        /// `dimensions`: its width and height as shown, and its EXIF orientation.
        public var dimensions = true
        /// `exif`: its EXIF tags.
        public var exif = true
        /// With ``exif``: tag names as EXIF spells them (`DateTimeOriginal`), not their titles.
        public var exifCanonicalNames = false
        /// `iptc`: its IPTC-IIM datasets and Photoshop resolution.
        public var iptc = true
        /// `xmp`: its XMP properties by namespace.
        public var xmp = true
        /// `colorspace`: `srgb`, `b-w`, `cmyk`, … as stored.
        public var colorspace = false
        /// `bands`: the channels stored.
        public var bands = false
        /// `sample_format`: `uchar`, `ushort` or `float`.
        public var sampleFormat = false
        /// `pages_number`: frames of an animation, else 1.
        public var pagesNumber = false
        /// `alpha`: whether it has an alpha channel.
        public var alpha = false
        /// With ``alpha``: also whether a pixel is not fully opaque.
        public var checksTransparency = false
        /// `crop`: where the crop of this size and gravity would be, as fractions of the image.
        public var crop: ProcessingOptions.Crop?
        /// `palette`: at most this many colours, 2…256 (0 is off).
        public var paletteColors = 0
        /// `average`: the average colour.
        public var average = false
        /// With ``average``: leave fully transparent pixels out.
        public var averageIgnoresTransparent = true
        /// `dominant_colors`: the six swatches.
        public var dominantColors = false
        /// With ``dominantColors``: make the swatches not found from those found.
        public var buildsMissingColors = false
        /// `blurhash`: components across and down, 1…9 each (nil is off).
        public var blurHash: (x: Int, y: Int)?
        /// `thumb_hash`.
        public var thumbHash = false
        /// `perceptual_hash`.
        public var perceptualHash = false
        /// `calc_hashsums`: checksums of the source's bytes.
        public var hashsums: [HashsumType] = []
        /// `hashsum`: the source must have this checksum, else 422.
        public var expectedHashsum: (type: HashsumType, hex: String)?
        /// `page`: the frame the pixel fields look at (0 is the first).
        public var page = 0
        /// `cachebuster`: changes the URL and cache keys, not the answer.
        public var cacheBuster: String?
        /// `expires`: a Unix time after which the URL answers 404.
        public var expires: Int?
        /// `max_src_resolution` (megapixels in the URL), a security option.
        public var maxSourcePixels: Int?
        /// `max_src_file_size`, a security option.
        public var maxSourceBytes: Int?

        public init() {}

        public static func == (lhs: InfoOptions, rhs: InfoOptions) -> Bool {
            lhs.canonicalString == rhs.canonicalString && lhs.expires == rhs.expires
        }

        /// Whether a field needs pixels or the whole source, rather than the header and first bytes.
        var needsWholeSource: Bool {
            colorspace || bands || sampleFormat || pagesNumber || alpha || crop != nil || paletteColors > 0
                || average || dominantColors || blurHash != nil || thumbHash || perceptualHash || !hashsums.isEmpty
                || expectedHashsum != nil
        }

        /// Whether a field needs the image decoded.
        var needsPixels: Bool {
            (alpha && checksTransparency) || crop != nil || paletteColors > 0 || average || dominantColors
                || blurHash != nil || thumbHash || perceptualHash
        }

        /// Whether the URL uses a security option.
        var usesSecurityOptions: Bool { maxSourcePixels != nil || maxSourceBytes != nil }
    }
#endif
