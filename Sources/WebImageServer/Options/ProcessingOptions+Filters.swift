#if Server
    import WebImage

    /// The types of imgproxy Pro's colour and detail options (`adjust`, `monochrome`, `duotone`,
    /// `colorize`, `unsharp_masking`, `blur_areas`, `progressive_blur`, `gradient`,
    /// `resizing_algorithm`); the stored properties are on ``ProcessingOptions``.
    extension ProcessingOptions {
        /// The resampling kernel of the resize (`resizing_algorithm`), by imgproxy's names.
        public enum ResizingAlgorithm: String, Sendable, CaseIterable {
            case nearest
            case linear
            case cubic
            case lanczos2
            case lanczos3

            /// The library's filter: `linear` is the tent (``ResamplingFilter/triangle``), `cubic`
            /// Catmull-Rom.
            public var filter: ResamplingFilter {
                switch self {
                case .nearest: .nearest
                case .linear: .triangle
                case .cubic: .cubic
                case .lanczos2: .lanczos2
                case .lanczos3: .lanczos3
                }
            }
        }

        /// `monochrome`: the image in one hue (``ImageMonochromeTransformer``).
        public struct Monochrome: Sendable, Equatable {
            /// 0…1; 0 turns the option off (nil).
            public var intensity: Double
            /// Whose hue the result takes (the colour's alpha is ignored).
            public var color = ImageMonochromeTransformer.defaultColor
        }

        /// `duotone`: the image mapped by luma from one colour to another (``ImageDuotoneTransformer``).
        public struct Duotone: Sendable, Equatable {
            /// 0…1; 0 turns the option off (nil).
            public var intensity: Double
            /// The colour of black.
            public var dark = RGBA8.black
            /// The colour of white.
            public var light = RGBA8.white
        }

        /// `colorize`: a flat colour over the whole image.
        public struct Colorize: Sendable, Equatable {
            /// 0…1; 0 turns the option off (nil).
            public var opacity: Double
            public var color = RGBA8.black
            /// Keep the image's alpha (the colour tints only what is there) rather than compositing
            /// the colour over transparent areas too.
            public var keepsAlpha = false
        }

        /// `unsharp_masking`: the mild sharpening imgproxy Pro gives downscaled images.
        public struct UnsharpMasking: Sendable, Equatable {
            /// When it applies.
            public enum Mode: String, Sendable, CaseIterable {
                /// When the image is downscaled and `sharpen` is not set.
                case auto
                /// Never (this service's default; imgproxy Pro's is `auto`).
                case none
                /// Always, after `sharpen` if that is set too.
                case always
            }

            public var mode = Mode.none
            /// How much the 8 neighbours weigh against the pixel: above 0, at most ``maximumWeight``.
            public var weight: Double = 1
            /// What the 3×3 mask is divided by, within ``dividerRange``; the smaller, the sharper.
            public var divider: Double = 24

            public static let maximumWeight: Double = 1000
            public static let dividerRange = 0.001...1_000_000.0
        }

        /// A rectangle as fractions 0…1 of the source's width and height, from its top-left corner.
        public struct Area: Sendable, Equatable {
            public var left: Double
            public var top: Double
            public var width: Double
            public var height: Double
        }

        /// `blur_areas`: a Gaussian blur of regions of the source, wherever they end up in the result.
        public struct BlurAreas: Sendable, Equatable {
            /// Pixels of the result, within ``ProcessingOptions/filterSigmaRange``; above 0.
            public var sigma: Double
            /// Relative to the source as shown (EXIF orientation applied), before `rotate` and `flip`.
            public var areas: [Area]

            /// The most areas one option may list.
            public static let maximumCount = 64
        }

        /// Where a ramp runs: the direction of `gradient` and `progressive_blur`.
        public struct Ramp: Sendable, Equatable {
            /// Degrees clockwise from straight down, 0..<360 (`down` 0, `left` 90, `up` 180,
            /// `right` 270).
            public var angle: Double = 0
            /// The relative positions 0…1 where the ramp starts and stops along ``angle``.
            public var start: Double = 0
            public var stop: Double = 1
        }

        /// `progressive_blur`: a blur growing from none at the start to `sigma` at the stop.
        public struct ProgressiveBlur: Sendable, Equatable {
            /// Pixels of the result, within ``ProcessingOptions/filterSigmaRange``; above 0.
            public var sigma: Double
            public var ramp = Ramp()
        }

        /// `gradient`: a colour fading in from transparent at the start to `opacity` at the stop.
        public struct Gradient: Sendable, Equatable {
            /// 0…1; 0 turns the option off (nil).
            public var opacity: Double
            public var color = RGBA8.black
            public var ramp = Ramp()
        }

        /// Whether brightness, contrast or saturation differ from their neutral values.
        var adjustsColour: Bool { brightness != 0 || contrast != 1 || saturation != 1 }

        /// Whether any of these options changes the pixels of an image that is not resized (so that
        /// the source's own bytes cannot be the result).
        var usesColourOrDetailOptions: Bool {
            adjustsColour || monochrome != nil || duotone != nil || colorize != nil || blurAreas != nil
                || progressiveBlur != nil || gradient != nil || unsharpMasking.mode == .always
        }
    }
#endif
