#if Server
    import WebImage

    /// What one request asks for, in imgproxy's terms: the parsed processing options.
    ///
    /// Defaults are imgproxy's: fit, no size (the source's), centre gravity, no enlarging or
    /// extending, DPR 1, the service's quality, metadata stripped, orientation applied.
    public struct ProcessingOptions: Sendable, Equatable {
        /// How the image is fitted to ``width`` × ``height``.
        public enum ResizingType: String, Sendable, CaseIterable {
            /// Inside the box, keeping the aspect ratio.
            case fit
            /// Cover the box, keeping the aspect ratio, then crop to it by ``gravity``.
            case fill
            /// As fill, but when the image is smaller than the box (and may not be enlarged) the
            /// crop keeps the box's aspect ratio inside the image.
            case fillDown = "fill-down"
            /// Exactly the box, ignoring the aspect ratio.
            case force
            /// Fill when the image and the box are both landscape or both portrait, else fit.
            case auto
        }

        /// Where a crop is taken from, or where an extended image sits.
        public enum Gravity: Sendable, Equatable {
            /// An edge, a corner or the centre, moved inward by an offset: pixels when its magnitude
            /// is 1 or more (times the DPR), else a fraction of the image's side. Offsets are any
            /// finite number; one that would move the region off the image puts it against the far
            /// edge, as imgproxy does.
            case anchored(Anchor, x: Double, y: Double)
            /// The point at fractions `x`, `y` of the image (0…1) becomes the centre of the crop.
            case focusPoint(x: Double, y: Double)
            /// The most detailed region (by local entropy).
            case smart

            /// imgproxy's nine gravity names.
            public enum Anchor: String, Sendable, CaseIterable {
                case center = "ce"
                case north = "no"
                case south = "so"
                case east = "ea"
                case west = "we"
                case northEast = "noea"
                case northWest = "nowe"
                case southEast = "soea"
                case southWest = "sowe"
            }

            public static let center = Gravity.anchored(.center, x: 0, y: 0)
        }

        /// A crop of the source before resizing: each side in pixels (1 or more), as a fraction of
        /// the source (below 1), or the whole side (0). Sides are finite and at least 0; one larger
        /// than the source takes the whole side, as imgproxy does.
        public struct Crop: Sendable, Equatable {
            public var width: Double
            public var height: Double
            /// Nil: the main ``ProcessingOptions/gravity``.
            public var gravity: Gravity?
        }

        /// Correcting the crop area (the whole source when ``ProcessingOptions/crop`` is not given) to
        /// an aspect ratio (`crop_aspect_ratio`). The area keeps its gravity; only its size changes.
        public struct CropAspectRatio: Sendable, Equatable {
            /// Width over height, finite and above 0.
            public var ratio: Double
            /// Grow the area's shorter side rather than shrink the longer one; an area that then
            /// outgrows the source is the largest of that ratio inside it.
            public var enlarges = false
        }

        /// Extending the result to the requested size (or aspect ratio) when it is smaller.
        public struct Extend: Sendable, Equatable {
            public var gravity: Gravity = .center
        }

        /// Cutting a uniform border off the source before anything else (imgproxy's `trim`).
        public struct Trim: Sendable, Equatable {
            /// How far (0…255 per channel, after a 3×3 median) a pixel may be from the background and
            /// still count as background.
            public var threshold: Double
            /// The background; nil takes the top-left pixel (transparency is matched as magenta).
            public var color: RGBA8?
            /// Cut as much from the right as from the left: the smaller of the two.
            public var equalHorizontal = false
            /// Cut as much from the bottom as from the top: the smaller of the two.
            public var equalVertical = false
        }

        /// Placing the service's watermark image on the result (imgproxy's `watermark`).
        public struct Watermark: Sendable, Equatable {
            /// Where the mark goes.
            public enum Position: Sendable, Equatable {
                /// An edge, a corner or the centre, moved by the offsets.
                case anchored(Gravity.Anchor)
                /// Tiled over the whole result (`re`), the offsets being the spacing between tiles.
                case replicate
                /// Tiled as `re`, every other tile left out like the squares of a chessboard (`ch`).
                case chess
            }

            /// Multiplies the service's base opacity; the product is capped at 1.
            public var opacity: Double
            public var position = Position.anchored(.center)
            /// Offsets, or spacing when tiled: pixels (times the DPR) when 1 or more in magnitude,
            /// else fractions of the result's side.
            public var x: Double = 0
            public var y: Double = 0
            /// Fit the mark into this fraction of the result's size (0: its own size).
            public var scale: Double = 0
        }

        /// Margins added around the result, in pixels before ``dpr`` (imgproxy's `padding`).
        public struct Padding: Sendable, Equatable {
            public var top = 0
            public var right = 0
            public var bottom = 0
            public var left = 0

            public var isZero: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }
        }

        public var resizingType: ResizingType = .fit
        /// Target width in pixels before ``dpr``, 0 or more; 0 means derived from the height and the
        /// aspect ratio.
        public var width = 0
        /// Target height in pixels before ``dpr``, 0 or more; 0 means derived from the width and the
        /// aspect ratio.
        public var height = 0
        /// Multiplies the target size and pixel offsets (`dpr:2` for a 2x screen); finite and above 0.
        public var dpr: Double = 1
        /// Multiplies the scale on each axis after the resizing type has chosen it (`zoom:x[:y]`);
        /// finite and above 0.
        public var zoomX: Double = 1
        public var zoomY: Double = 1
        /// The result is at least this wide, enlarged if need be (`min-width`); 0 is off.
        public var minWidth = 0
        /// The result is at least this high, enlarged if need be (`min-height`); 0 is off.
        public var minHeight = 0
        /// Allow the result to be larger than the source.
        public var enlarge = false
        /// Extend a smaller result to the requested size (nil: off).
        public var extend: Extend?
        /// Extend the result to the requested aspect ratio (nil: off).
        public var extendAspectRatio: Extend?
        /// Margins around the result, after extending; transparent, or the background once flattened.
        public var padding = Padding()
        /// Mirror the result left to right (`flip:1`), after the rotation.
        public var flipHorizontal = false
        /// Mirror the result top to bottom (`flip::1`), after the rotation.
        public var flipVertical = false
        public var gravity: Gravity = .center
        public var crop: Crop?
        /// The aspect ratio the crop area is corrected to (nil: as it is).
        public var cropAspectRatio: CropAspectRatio?
        /// 1…100; nil: the service's default for the output format.
        public var quality: Int?
        /// Qualities by output format when ``quality`` is not given (`format_quality`); they win over
        /// the service's defaults.
        public var formatQualities: [ImageFormat: Int] = [:]
        /// Cut the source's uniform border first (nil: off). Animations are not trimmed.
        public var trim: Trim?
        /// Replace each block of this many pixels square by its average (`pixelate`); 0 or 1 is off.
        public var pixelate = 0
        /// Answer sources in these formats with their own bytes (`skip_processing`), when the URL
        /// names no other output format.
        public var skipProcessingFormats: Set<ImageFormat> = []
        /// Answer with the source's bytes, unprocessed and unchecked (`raw`).
        public var raw = false
        /// The output format; nil: negotiated from `Accept`, else the source's.
        public var format: ImageFormat?
        /// `format:best` (or the `.best` extension): the smallest of several formats (``BestFormat``).
        public var bestFormat = false
        /// The formats `best` tries for this request, which the service sets from its settings and
        /// `Accept` (``OutputFormats/bestCandidates(accept:configuration:)``); empty: not `best`.
        public var bestFormats: [ImageFormat] = []
        /// The URL's `autoquality`/`aq` arguments (nil: the service's ``Autoquality``).
        public var autoquality: AutoqualityArguments?
        /// Flatten transparency onto this colour (nil: keep alpha where the format has it; JPEG
        /// composites onto white).
        public var background: RGBA8?
        /// Gaussian blur sigma in pixels, 0…1000 (``ImageBlurTransformer/maximumRadius``); 0 is off.
        public var blur: Double = 0
        /// Unsharp-mask sigma in pixels, 0…1000; 0 is off.
        public var sharpen: Double = 0
        /// A multiple of 90 degrees, clockwise.
        public var rotate = 0
        /// Apply the EXIF orientation (`auto_rotate`); the tag is dropped either way.
        public var autoRotate = true
        /// Drop EXIF and XMP from the result (an ICC profile stays with unconverted pixels).
        public var stripMetadata = true
        /// With ``stripMetadata``: keep who made and owns the image (EXIF `Artist` and `Copyright`,
        /// XMP `dc:rights`, `dc:creator`, `dc:contributor`, `dc:publisher`, `xmpRights` and `cc`)
        /// and drop the rest (`keep_copyright`; the service's default, true unless configured).
        public var keepCopyright = true
        /// Decode a HEIC or AVIF source's embedded thumbnail, when it has one, rather than the main
        /// image (`enforce_thumbnail`; the service's default, false unless configured).
        public var enforceThumbnail = false
        /// Convert pixels with an embedded ICC profile to sRGB and drop the profile
        /// (`strip_color_profile`, imgproxy's default); `scp:0` keeps the pixels and their profile.
        public var stripColorProfile = true
        /// Keep a source with more than 8 bits per channel (16-bit PNG and TIFF, float TIFF,
        /// 10- and 12-bit AVIF and HEIC, JPEG XL) at 16 bits through the geometry steps and into
        /// a PNG, TIFF or JPEG XL result (16 bits) or an AVIF one (10 bits) (`preserve_hdr`; the
        /// service's default, false unless configured). Other formats (HEIC's too) and the 8-bit
        /// filters get 8 bits as always.
        public var preserveHDR = false
        /// Lower the quality until the result takes at most this many bytes (lossy formats).
        public var maxBytes: Int?
        /// Changes the URL (and so every cache key) without changing the image.
        public var cacheBuster: String?
        /// A Unix time after which the URL answers 404.
        public var expires: Int?
        /// The file name offered in `Content-Disposition`.
        public var filename: String?
        /// `Content-Disposition: attachment` rather than `inline`.
        public var returnAttachment = false
        /// imgproxy's security options, which a URL may give only where the service allows them
        /// (``ServiceConfiguration/allowsSecurityOptions``); each replaces the service's limit.
        /// Refuse sources with more pixels than this (`max_src_resolution`, megapixels in the URL; 0
        /// keeps the service's limit).
        public var maxSourcePixels: Int?
        /// Refuse sources larger than this many bytes (`max_src_file_size`; 0 is no limit of its
        /// own). It can lower the service's limit, not raise it: downloads stop at the service's.
        public var maxSourceBytes: Int?
        /// Refuse animations with more frames than this (`max_animation_frames`).
        public var maxAnimationFrames: Int?
        /// Refuse animations whose frames have more pixels than this (`max_animation_frame_resolution`,
        /// megapixels in the URL; 0 keeps the service's limit).
        public var maxAnimationFramePixels: Int?
        /// Scale the result down until neither side is longer than this (`max_result_dimension`;
        /// 0 is no limit).
        public var maxResultDimension: Int?
        /// Whether any of the security options above was given.
        public var usesSecurityOptions: Bool {
            maxSourcePixels != nil || maxSourceBytes != nil || maxAnimationFrames != nil
                || maxAnimationFramePixels != nil || maxResultDimension != nil
        }
        /// Place the service's watermark (nil or an opacity of 0: none).
        public var watermark: Watermark?
        /// imgproxy Pro's per-request mark and its shaping (`watermark_url`, `watermark_text`,
        /// `watermark_size`, `watermark_rotate`, `watermark_shadow`; ProcessingOptions+CustomWatermark.swift).
        public var customWatermark = CustomWatermark()
        /// Ours: round the corners by this radius in pixels, finite and at least 0 (the library's
        /// round-corner transformer, which clamps it to half the shorter side).
        public var cornerRadius: Double = 0
        /// Ours: tint with this colour (the library's tint transformer).
        public var tint: RGBA8?
        /// The pipelines that run after this one, in order, each on the previous one's result (a `-`
        /// segment starts one: imgproxy Pro's chained pipelines). They hold per-pipeline options
        /// only; the request's options (format, quality, metadata, limits, …) are this value's.
        public var chained: [ProcessingOptions] = []

        // imgproxy Pro's colour and detail options (types in ProcessingOptions+Filters.swift).
        /// The resize's kernel (`resizing_algorithm`; imgproxy's default, Lanczos 3).
        public var resizingAlgorithm = ResizingAlgorithm.lanczos3
        /// Added to every colour channel after the resize (`brightness`, `adjust`), -255…255; 0 is off.
        public var brightness = 0
        /// Multiplies each channel's distance from mid-gray (`contrast`, `adjust`), 0…100; 1 is off.
        public var contrast: Double = 1
        /// Multiplies each colour's distance from its luma (`saturation`, `adjust`), 0…100; 1 is off.
        public var saturation: Double = 1
        /// The image in one hue (`monochrome`; nil: off).
        public var monochrome: Monochrome?
        /// The image mapped from one colour to another by luma (`duotone`; nil: off).
        public var duotone: Duotone?
        /// A flat colour over the image (`colorize`; nil: off).
        public var colorize: Colorize?
        /// Sharpening of downscaled images (`unsharp_masking`; off unless its mode says).
        public var unsharpMasking = UnsharpMasking()
        /// Regions of the source blurred in the result (`blur_areas`; nil: off).
        public var blurAreas: BlurAreas?
        /// A blur growing across the image (`progressive_blur`; nil: off).
        public var progressiveBlur: ProgressiveBlur?
        /// A colour fading in across the image (`gradient`; nil: off).
        public var gradient: Gradient?
        /// The alpha of the ``background`` transparency is flattened onto (`background_alpha`), 0…1;
        /// 1 flattens to opaque.
        public var backgroundAlpha: Double = 1

        public init() {}
    }
#endif
