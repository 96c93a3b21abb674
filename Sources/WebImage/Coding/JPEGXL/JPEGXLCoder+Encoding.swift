#if JPEGXL
    import CJXL
    import Foundation

    extension JPEGXLCoder {
        /// Encodes `image` as JPEG XL: lossy (VarDCT in XYB) at a Butteraugli distance from
        /// `compressionQuality` (cjxl's quality scale; or the best quality within `maxFileSize`), or
        /// mathematically lossless (`options.lossless`: modular, original colour space); gray when every
        /// frame is gray (``ImageEncodeOptions/writesGrayscale``). The upright
        /// pixels are encoded, scaled down to fit `maxPixelSize`; an animation keeps its frame
        /// durations (in milliseconds; a frame without one shows for 100 ms, as libjxl would
        /// otherwise hide it behind the next) and loop count unless `firstFrameOnly`.
        /// ``ImageEncodeOptions/keptMetadata`` goes into the ICC profile and `Exif` and `xml ` boxes.
        /// A still with an ``Image/deepBitmap`` is written at 16 bits per sample (lossless gives
        /// those 16 bits back exactly).
        public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
            -> Data
        {
            guard format == .jpegXL else { throw .unsupportedFormat(format) }
            var metadata = image.metadata.forEncoding(options.keptMetadata)
            let frames: [(pixels: DecodedPixels, duration: Double)] =
                if let deep = try image.deepBitmapForEncoding(options) {
                    [(.deep(deep), 0)]
                } else {
                    try image.framesForEncoding(options).map { (.eightBit($0.bitmap), $0.duration) }
                }
            // Gray pixels are written as gray when every frame is gray and the profile allows it.
            let grayMetadata = frames.map { frame in
                GrayscaleEncoding.grayMetadata(metadata: metadata, options: options) { frame.pixels.isGray }
            }
            let gray = grayMetadata.allSatisfy { $0 != nil }
            if gray, let first = grayMetadata.first, let kept = first { metadata = kept }
            let loopCount = frames.count > 1 ? image.animation?.loopCount ?? 0 : 0
            let quality = options.effectiveQuality * 100
            let settings = Settings(
                distance: Self.distance(quality: quality), lossless: options.lossless,
                effort: Self.effort(options.effort),
                loopCount: loopCount, gray: gray)
            let first = try JPEGXLEncoderSession.encode(frames, settings: settings, metadata: metadata)
            guard !options.lossless, let limit = options.maxFileSize, first.count > limit else { return first }
            // Steps are the whole qualities below the first one, best first.
            let below = Int(clamping: quality, rounding: .up)
            return try FileSizeSearch.bestWithin(limit, steps: below, smallest: first) { step throws(WebImageError) in
                var candidate = settings
                candidate.distance = Self.distance(quality: Double(below - 1 - step))
                return try JPEGXLEncoderSession.encode(frames, settings: candidate, metadata: metadata)
            }
        }

        /// What one encode uses.
        struct Settings {
            var distance: Float
            var lossless: Bool
            var effort: Int64
            var loopCount: Int
            /// One colour channel (the red of gray pixels), with the alpha after it when there is one.
            var gray = false
        }

        /// The Butteraugli distance for a quality of 0…100, by cjxl's own mapping (libjxl 0.7,
        /// `tools/cjxl_main.cc`, the `--quality` flag; later libjxl exports it as
        /// `JxlEncoderDistanceFromQuality`): 0.1 + (100 − q) × 0.09 from 30 up (1.0 at 90, 4.6 at
        /// 50), 6.4 + 2.5^((30 − q) / 5) / 6.25 below (checked: Debian's cjxl 0.7 writes the same
        /// bytes for `-q 50` and `-d 4.6`, and for `-q 20` and `-d 7.4`). cjxl makes quality 100
        /// lossless; here it is distance 0.1, and lossless is ``ImageEncodeOptions/lossless``.
        static func distance(quality: Double) -> Float {
            let distance = quality >= 30 ? 0.1 + (100 - quality) * 0.09 : 6.4 + pow(2.5, (30 - quality) / 5) / 6.25
            // libjxl accepts at most 25.
            return Float(min(distance, 25))
        }

        /// libjxl's effort (1 fastest … 9 slowest) for an effort: 7 is libjxl's, cjxl's and
        /// pillow-jxl-plugin's default; 3 skips most of the search (still far smaller than PNG);
        /// 9 tries hardest.
        static func effort(_ effort: EncodeEffort) -> Int64 {
            switch effort {
            case .fastest: 3
            case .balanced: 7
            case .smallest: 9
            }
        }
    }
#endif
