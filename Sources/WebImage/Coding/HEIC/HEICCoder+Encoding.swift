#if HEIC
    import CHEIF
    import Foundation

    extension HEICCoder {
        /// Encodes `image` as an HEVC-coded HEIF file: lossy at libheif's quality
        /// `compressionQuality × 100` (or the best quality within `maxFileSize`), or lossless
        /// (`options.lossless`: 4:4:4 with the identity matrix, so every RGB value survives). The
        /// upright pixels of the first frame are encoded, scaled down to fit `maxPixelSize`;
        /// ``ImageEncodeOptions/effort`` picks x265's preset and ``ImageEncodeOptions/chromaSubsampling``
        /// its chroma format. ``ImageEncodeOptions/keptMetadata`` goes into the `colr` ICC profile
        /// and the Exif and XMP items. Any size works, 1×1 and odd ones included: libheif pads the
        /// picture for x265 and crops it back in the container.
        public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
            -> Data
        {
            guard canEncode(to: format) else { throw .unsupportedFormat(format) }
            let metadata = image.metadata.forEncoding(options.keptMetadata)
            let bitmap = try image.bitmap.preparedForEncoding(orientation: image.orientation, options: options)
            let settings = Settings(options: options)
            let first = try Self.encode(bitmap, settings: settings, metadata: metadata)
            guard !options.lossless, let limit = options.maxFileSize, first.count > limit else { return first }
            // Steps are the qualities below the first one, best first.
            return try FileSizeSearch.bestWithin(limit, steps: settings.quality, smallest: first) {
                step throws(WebImageError) in
                var candidate = settings
                candidate.quality = settings.quality - 1 - step
                return try Self.encode(bitmap, settings: candidate, metadata: metadata)
            }
        }

        /// What one encode uses.
        struct Settings {
            /// libheif's lossy quality, 0...100.
            var quality: Int
            var lossless: Bool
            var preset: String
            var chroma: String

            init(options: ImageEncodeOptions) {
                let fraction = options.effectiveQuality
                quality = Int(clamping: fraction * 100, rounding: .toNearestOrAwayFromZero)
                lossless = options.lossless
                preset = HEICCoder.preset(options.effort)
                chroma =
                    switch options.lossless ? .yuv444 : options.chromaSubsampling {
                    case .yuv420: "420"
                    case .yuv422: "422"
                    case .yuv444: "444"
                    }
            }
        }

        /// x265's preset for an effort: `slow`, the balanced one, is libheif's default (and so
        /// pillow-heif's).
        static func preset(_ effort: EncodeEffort) -> String {
            switch effort {
            case .fastest: "veryfast"
            case .balanced: "slow"
            case .smallest: "slower"
            }
        }

        /// One HEIF file holding `bitmap` as its primary image, with `metadata`.
        static func encode(_ bitmap: ImageBitmap, settings: Settings, metadata: ImageMetadata) throws(WebImageError)
            -> Data
        {
            HEIFLibrary.initialize()
            guard let context = heif_context_alloc() else { throw .encodingFailed("libheif could not make a context") }
            defer { heif_context_free(context) }
            var encoder: OpaquePointer?
            try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "finding x265")
            guard let encoder else { throw .encodingFailed("libheif has no HEVC encoder") }
            defer { heif_encoder_release(encoder) }
            if settings.lossless {
                try check(heif_encoder_set_lossless(encoder, 1), "asking for lossless coding")
            } else {
                try check(heif_encoder_set_lossy_quality(encoder, Int32(settings.quality)), "setting the quality")
            }
            try check(heif_encoder_set_parameter(encoder, "preset", settings.preset), "setting x265's preset")
            try check(heif_encoder_set_parameter(encoder, "chroma", settings.chroma), "setting the chroma format")

            let hasAlpha = bitmap.containsTransparency
            let image = try makeImage(bitmap)
            defer { heif_image_release(image) }
            guard let options = heif_encoding_options_alloc() else {
                throw .encodingFailed("libheif could not allocate encoding options")
            }
            defer { heif_encoding_options_free(options) }
            options.pointee.save_alpha_channel = hasAlpha ? 1 : 0
            var identity: UnsafeMutablePointer<heif_color_profile_nclx>?
            defer { if let identity { heif_nclx_color_profile_free(identity) } }
            if settings.lossless {
                // RGB → YCbCr rounds; the identity matrix stores G, B, R as they are. libheif 1.15
                // only uses it when the input image carries it, not from the options alone.
                identity = heif_nclx_color_profile_alloc()
                guard let identity else { throw .encodingFailed("libheif could not allocate a colour profile") }
                identity.pointee.matrix_coefficients = heif_matrix_coefficients_RGB_GBR
                identity.pointee.full_range_flag = 1
                try check(heif_image_set_nclx_color_profile(image, identity), "setting the identity matrix")
                options.pointee.output_nclx_profile = identity
                options.pointee.save_two_colr_boxes_when_ICC_and_nclx_available = 1
            }
            if let icc = metadata.iccProfile {
                try check(
                    icc.withUnsafeBytes { heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count) },
                    "adding the ICC profile")
            }
            var handle: OpaquePointer?
            try check(heif_context_encode_image(context, image, encoder, options, &handle), "encoding the image")
            defer { if let handle { heif_image_handle_release(handle) } }
            guard metadata.byteCount < Int(Int32.max) else {
                throw .encodingFailed("the metadata is too large for HEIC")
            }
            if let exif = metadata.exif {
                try check(
                    exif.withUnsafeBytes {
                        heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count))
                    },
                    "adding the EXIF block")
            }
            if let xmp = metadata.xmp {
                try check(
                    xmp.withUnsafeBytes {
                        heif_context_add_XMP_metadata(context, handle, $0.baseAddress, Int32($0.count))
                    },
                    "adding the XMP packet")
            }
            return try write(context)
        }

        /// An interleaved RGBA `heif_image` holding a copy of `bitmap` (the caller releases it).
        private static func makeImage(_ bitmap: ImageBitmap) throws(WebImageError) -> OpaquePointer {
            let side = Int(HEIFLibrary.maximumSide)
            guard bitmap.width <= side, bitmap.height <= side else {
                throw .encodingFailed("a \(bitmap.width)x\(bitmap.height) image is past HEIC's \(side)-pixel side")
            }
            var created: OpaquePointer?
            try check(
                heif_image_create(
                    Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB, heif_chroma_interleaved_RGBA,
                    &created),
                "making a \(bitmap.width)x\(bitmap.height) image")
            guard let image = created else { throw .encodingFailed("libheif made no image") }
            let added = heif_image_add_plane(
                image, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), 8)
            var stride: Int32 = 0
            guard HEIFLibrary.succeeded(added),
                let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride)
            else {
                heif_image_release(image)
                throw .encodingFailed("libheif could not allocate a \(bitmap.width)x\(bitmap.height) plane")
            }
            let rowBytes = bitmap.bytesPerRow
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                for row in 0..<bitmap.height {
                    (plane + row * Int(stride)).update(from: pixels.baseAddress! + row * rowBytes, count: rowBytes)
                }
            }
            return image
        }

        /// The file `context` holds, written through libheif's writer callback.
        private static func write(_ context: OpaquePointer) throws(WebImageError) -> Data {
            final class Sink { var data = Data() }
            let sink = Sink()
            var writer = heif_writer(
                writer_api_version: 1,
                write: { _, bytes, count, user in
                    let sink = Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue()
                    if let bytes, count > 0 {
                        sink.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: count)
                    }
                    return heif_error(
                        code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: HEICCoder.okMessage)
                })
            let status = withExtendedLifetime(sink) {
                heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque())
            }
            try check(status, "writing the HEIF file")
            return sink.data
        }

        /// The message a successful writer callback returns (libheif may print it).
        private static var okMessage: UnsafePointer<CChar> {
            UnsafeRawPointer(("Success" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
        }

        private static func check(_ status: heif_error, _ doing: String) throws(WebImageError) {
            guard HEIFLibrary.succeeded(status) else {
                throw .encodingFailed("\(doing) as HEIC: \(HEIFLibrary.message(status))")
            }
        }
    }
#endif
