#if AVIF
    import CAVIF
    import Foundation

    extension AVIFCoder {
        /// Encodes `image` as AVIF: lossy at a quantizer from `compressionQuality` (SDWebImage's
        /// AVIF coder's mapping: 1 is quantizer 0, 0 is 63; or the best quality within
        /// `maxFileSize`), or lossless (`options.lossless`: 4:4:4, identity matrix, quantizer 0);
        /// monochrome (4:0:0) when every frame is gray (``ImageEncodeOptions/writesGrayscale``).
        /// The upright pixels are encoded, scaled down to fit `maxPixelSize`; an animation becomes
        /// an image sequence unless `firstFrameOnly`. ``ImageEncodeOptions/keptMetadata`` goes into
        /// the container's `colr` ICC profile, Exif and XMP items. A still with an
        /// ``Image/deepBitmap`` is written at 10 bits per sample (lossless keeps those 10 bits).
        public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
            -> Data
        {
            guard format == .avif else { throw .unsupportedFormat(format) }
            var metadata = image.metadata.forEncoding(options.keptMetadata)
            let frames: [(pixels: DecodedPixels, duration: Double)] =
                if let deep = try image.deepBitmapForEncoding(options) {
                    [(.deep(deep), 0)]
                } else {
                    try image.framesForEncoding(options).map { (.eightBit($0.bitmap), $0.duration) }
                }
            var settings = Settings(options: options, sequence: frames.count > 1)
            // Gray pixels are written as monochrome (4:0:0) when every frame is gray and the profile allows it.
            let grayMetadata = frames.map { frame in
                GrayscaleEncoding.grayMetadata(metadata: metadata, options: options) { frame.pixels.isGray }
            }
            if grayMetadata.allSatisfy({ $0 != nil }), let first = grayMetadata.first, let kept = first {
                metadata = kept
                settings.gray = true
            }
            let first = try Self.encode(frames, settings: settings, metadata: metadata)
            guard !options.lossless, let limit = options.maxFileSize, first.count > limit else { return first }
            // Steps are the quantizers above the first one, best quality first.
            let worst = Int(AVIF_QUANTIZER_WORST_QUALITY)
            return try FileSizeSearch.bestWithin(limit, steps: worst - settings.quantizer, smallest: first) {
                step throws(WebImageError) in
                var candidate = settings
                candidate.quantizer = settings.quantizer + 1 + step
                return try Self.encode(frames, settings: candidate, metadata: metadata)
            }
        }

        /// What one encode uses.
        struct Settings {
            var quantizer: Int
            var lossless: Bool
            var codec: avifCodecChoice
            var speed: Int32
            var yuv444: Bool
            /// Monochrome (4:0:0): luma alone, which is the gray of gray pixels.
            var gray = false

            init(options: ImageEncodeOptions, sequence: Bool = false) {
                let quality = options.effectiveQuality
                let worst = Double(AVIF_QUANTIZER_WORST_QUALITY)
                quantizer = Int(clamping: worst - quality * worst, rounding: .toNearestOrAwayFromZero)
                lossless = options.lossless
                codec = AVIFCoder.codec
                speed = AVIFCoder.speed(options.effort, sequence: sequence)
                yuv444 = options.lossless || options.chromaSubsampling == .yuv444
            }
        }

        /// libaom, named rather than left to libavif's choice, so that a libavif built with another
        /// encoder first still writes the same files. It was picked by measurement against SVT-AV1
        /// and rav1e (Benchmarks/README.md, "AVIF encoders"), and it encodes everything this coder
        /// writes: 4:4:4, lossless, alpha, sizes down to 1x1 and sequences. SVT-AV1 1.4 refuses all
        /// but 4:2:0 pictures of even width and height from 64x64 up (so lossless, which is 4:4:4).
        static let codec = AVIF_CODEC_CHOICE_AOM

        /// libavif's speed (0 slowest … 10 fastest; libaom's `cpu-used`, at most 9) for an effort,
        /// picked by the same measurement. A still is encoded in libaom's all-intra mode at every
        /// speed: at Pillow's SSIM, speed 9, libaom's fastest, wrote fewer bytes than Pillow's
        /// defaults in a small fraction of its time, and fewer than speeds 7 and 8 did; 6 (Pillow's
        /// speed) wrote fewer still, in less time than Pillow. So `fastest` and `balanced` are the
        /// same for stills. A sequence switches to libaom's real-time mode from speed 7: many times
        /// faster than speed 6, but more bytes at a lower SSIM, so only `fastest` takes it and
        /// sequences otherwise keep speeds 6 and 4.
        static func speed(_ effort: EncodeEffort, sequence: Bool = false) -> Int32 {
            switch effort {
            case .fastest: 9
            case .balanced: sequence ? 6 : 9
            case .smallest: sequence ? 4 : 6
            }
        }

        /// One AVIF file of `frames` (one frame: a still image item; more: a sequence in
        /// milliseconds).
        static func encode(
            _ frames: [(pixels: DecodedPixels, duration: Double)], settings: Settings, metadata: ImageMetadata
        ) throws(WebImageError) -> Data {
            guard let encoder = avifEncoderCreate() else { throw .encodingFailed("libavif could not make an encoder") }
            defer { avifEncoderDestroy(encoder) }
            // The CPU threads idle now, plus this one: under load an encode uses one thread.
            encoder.pointee.maxThreads = Int32(clamping: ThreadPoolExecutor.availableParallelism)
            encoder.pointee.codecChoice = settings.codec
            encoder.pointee.speed = settings.speed
            encoder.pointee.timescale = 1000
            let quantizer = Int32(settings.lossless ? Int(AVIF_QUANTIZER_LOSSLESS) : settings.quantizer)
            encoder.pointee.minQuantizer = quantizer
            encoder.pointee.maxQuantizer = quantizer
            encoder.pointee.minQuantizerAlpha = quantizer
            encoder.pointee.maxQuantizerAlpha = quantizer
            let flags = frames.count == 1 ? AVIF_ADD_IMAGE_FLAG_SINGLE : AVIF_ADD_IMAGE_FLAG_NONE
            for (index, frame) in frames.enumerated() {
                let image = try makeImage(
                    frame.pixels, settings: settings, metadata: index == 0 ? metadata : ImageMetadata())
                defer { avifImageDestroy(image) }
                let milliseconds = max(1, UInt64(clamping: frame.duration * 1000, rounding: .toNearestOrAwayFromZero))
                let result = avifEncoderAddImage(encoder, image, milliseconds, avifAddImageFlags(flags.rawValue))
                guard result == AVIF_RESULT_OK else { throw error(result, "encoding frame \(index) as AVIF") }
            }
            var output = avifRWData()
            defer { avifRWDataFree(&output) }
            let result = avifEncoderFinish(encoder, &output)
            guard result == AVIF_RESULT_OK, let bytes = output.data else {
                throw error(result, "finishing the AVIF file")
            }
            return Data(bytes: bytes, count: output.size)
        }

        /// An `avifImage` of `pixels` in YUV (the caller destroys it), with `metadata`: 8 bits per
        /// sample, or 10 for deep pixels.
        private static func makeImage(_ pixels: DecodedPixels, settings: Settings, metadata: ImageMetadata)
            throws(WebImageError) -> UnsafeMutablePointer<avifImage>
        {
            let format =
                settings.gray
                ? AVIF_PIXEL_FORMAT_YUV400 : settings.yuv444 ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
            let size = pixels.size
            let (depth, bytesPerSample): (UInt32, Int) =
                switch pixels {
                case .eightBit: (8, 1)
                case .deep: (10, 2)
                }
            guard let width = UInt32(exactly: size.width), let height = UInt32(exactly: size.height),
                let rowBytes = UInt32(exactly: size.width * 4 * bytesPerSample),
                let image = avifImageCreate(width, height, depth, format)
            else {
                throw .encodingFailed("libavif could not make a \(size.width)x\(size.height) image")
            }
            // Full-range luma of a gray pixel is its value, so monochrome stays lossless without
            // the identity matrix (which needs all three planes).
            if settings.lossless, !settings.gray {
                image.pointee.matrixCoefficients = UInt16(AVIF_MATRIX_COEFFICIENTS_IDENTITY)
            }
            image.pointee.yuvRange = AVIF_RANGE_FULL
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, image)
            rgb.depth = UInt32(8 * bytesPerSample)
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.ignoreAlpha = pixels.containsTransparency ? AVIF_FALSE : AVIF_TRUE
            rgb.rowBytes = rowBytes
            let converted: avifResult
            switch pixels {
            case .eightBit(let bitmap):
                converted = bitmap.pixels.withUnsafeBufferPointer { samples in
                    rgb.pixels = UnsafeMutablePointer(mutating: samples.baseAddress)
                    return avifImageRGBToYUV(image, &rgb)
                }
            case .deep(let deep):
                converted = deep.pixels.withUnsafeBytes { samples in
                    rgb.pixels = UnsafeMutablePointer(mutating: samples.bindMemory(to: UInt8.self).baseAddress)
                    return avifImageRGBToYUV(image, &rgb)
                }
            }
            guard converted == AVIF_RESULT_OK else {
                avifImageDestroy(image)
                throw error(converted, "converting the pixels to YUV")
            }
            if let icc = metadata.iccProfile {
                icc.withUnsafeBytes {
                    avifImageSetProfileICC(image, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
                }
            }
            if let exif = metadata.exif {
                exif.withUnsafeBytes {
                    avifImageSetMetadataExif(image, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
                }
            }
            if let xmp = metadata.xmp {
                xmp.withUnsafeBytes {
                    avifImageSetMetadataXMP(image, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
                }
            }
            return image
        }

        private static func error(_ result: avifResult, _ doing: String) -> WebImageError {
            .encodingFailed("\(doing): \(String(cString: avifResultToString(result)))")
        }
    }
#endif
