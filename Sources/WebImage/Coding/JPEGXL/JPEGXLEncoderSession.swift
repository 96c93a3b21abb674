#if JPEGXL
    import CJXL
    import Foundation

    /// One libjxl encode of prepared frames into a JPEG XL file (a bare code stream, or the
    /// container when metadata boxes go with it): 8 bits per sample, or 16 for deep frames.
    enum JPEGXLEncoderSession {
        static func encode(
            _ frames: [(pixels: DecodedPixels, duration: Double)], settings: JPEGXLCoder.Settings,
            metadata: ImageMetadata
        ) throws(WebImageError) -> Data {
            guard let encoder = JxlEncoderCreate(nil) else { throw .encodingFailed("libjxl could not make an encoder") }
            defer { JxlEncoderDestroy(encoder) }
            guard let first = frames.first, let width = UInt32(exactly: first.pixels.size.width),
                let height = UInt32(exactly: first.pixels.size.height)
            else { throw .encodingFailed("no frame of a size JPEG XL can hold to encode") }
            let hasAlpha = frames.contains { $0.pixels.containsTransparency }
            let bits: UInt32 =
                switch first.pixels {
                case .eightBit: 8
                case .deep: 16
                }
            var info = JxlBasicInfo()
            JxlEncoderInitBasicInfo(&info)
            info.xsize = width
            info.ysize = height
            info.bits_per_sample = bits
            info.num_color_channels = settings.gray ? 1 : 3
            info.alpha_bits = hasAlpha ? bits : 0
            info.num_extra_channels = hasAlpha ? 1 : 0
            // Lossless must keep the pixels' own colour space; lossy converts them to XYB.
            info.uses_original_profile = settings.lossless ? JXL_TRUE : JXL_FALSE
            if frames.count > 1 {
                info.have_animation = JXL_TRUE
                info.animation.tps_numerator = 1000
                info.animation.tps_denominator = 1
                info.animation.num_loops = UInt32(clamping: max(0, settings.loopCount))
            }
            try check(JxlEncoderSetBasicInfo(encoder, &info), encoder, "setting the JPEG XL header")
            try setColor(encoder, profile: metadata.iccProfile, gray: settings.gray)
            try addBoxes(encoder, metadata: metadata)
            guard let frameSettings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
                throw .encodingFailed("libjxl could not make frame settings")
            }
            try check(
                JxlEncoderFrameSettingsSetOption(frameSettings, JXL_ENC_FRAME_SETTING_EFFORT, settings.effort), encoder,
                "setting the effort")
            if settings.lossless {
                try check(JxlEncoderSetFrameLossless(frameSettings, JXL_TRUE), encoder, "asking for lossless")
            } else {
                try check(JxlEncoderSetFrameDistance(frameSettings, settings.distance), encoder, "setting the distance")
            }
            for (index, frame) in frames.enumerated() {
                if frames.count > 1 {
                    var header = JxlFrameHeader()
                    JxlEncoderInitFrameHeader(&header)
                    header.duration = displayTicks(frame.duration)
                    try check(
                        JxlEncoderSetFrameHeader(frameSettings, &header), encoder, "setting frame \(index)'s header")
                }
                try addFrame(
                    frame.pixels, hasAlpha: hasAlpha, gray: settings.gray, encoder: encoder, settings: frameSettings,
                    index: index)
            }
            JxlEncoderCloseInput(encoder)
            return try collectOutput(encoder)
        }

        /// A frame's duration in milliseconds (the ticks the header sets). A frame of 0 ticks is
        /// not shown in a JPEG XL animation: libjxl composites it into the next one as a layer, so
        /// a run of them (a TIFF's pages, frames made without durations) would show only the last.
        /// Such a frame gets 100 ms, what players give a GIF, APNG or WebP frame without a delay.
        static func displayTicks(_ duration: Double) -> UInt32 {
            let ticks = UInt32(clamping: duration * 1000, rounding: .toNearestOrAwayFromZero)
            return ticks == 0 ? 100 : ticks
        }

        /// The ICC profile kept from the source, or sRGB. A profile libjxl cannot parse is left out
        /// (the pixels are then taken as sRGB) rather than failing the encode.
        private static func setColor(_ encoder: OpaquePointer, profile: Data?, gray: Bool) throws(WebImageError) {
            if let profile, !profile.isEmpty {
                let status = profile.withUnsafeBytes {
                    JxlEncoderSetICCProfile(encoder, $0.bindMemory(to: UInt8.self).baseAddress, $0.count)
                }
                if status == JXL_ENC_SUCCESS { return }
            }
            var srgb = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&srgb, gray ? JXL_TRUE : JXL_FALSE)
            try check(JxlEncoderSetColorEncoding(encoder, &srgb), encoder, "setting the colour encoding")
        }

        /// EXIF (a `Exif` box: a 4-byte offset to the TIFF header, here 0, then the TIFF data) and XMP
        /// (an `xml ` box), which put the file in the container.
        private static func addBoxes(_ encoder: OpaquePointer, metadata: ImageMetadata) throws(WebImageError) {
            var boxes: [(type: String, contents: Data)] = []
            if let exif = metadata.exif, !exif.isEmpty { boxes.append(("Exif", Data(count: 4) + exif)) }
            if let xmp = metadata.xmp, !xmp.isEmpty { boxes.append(("xml ", xmp)) }
            guard !boxes.isEmpty else { return }
            try check(JxlEncoderUseBoxes(encoder), encoder, "turning on metadata boxes")
            for box in boxes {
                let type = box.type.utf8.map { CChar(bitPattern: $0) }
                let status = box.contents.withUnsafeBytes { contents in
                    JxlEncoderAddBox(
                        encoder, type, contents.bindMemory(to: UInt8.self).baseAddress, contents.count, JXL_FALSE)
                }
                try check(status, encoder, "adding the \(box.type) box")
            }
            JxlEncoderCloseBoxes(encoder)
        }

        /// Hands libjxl one frame: RGBA as stored, or RGB when the animation is opaque throughout;
        /// gray (and alpha) when `gray`; 8 or 16 bits per sample as `pixels` hold them.
        private static func addFrame(
            _ pixels: DecodedPixels, hasAlpha: Bool, gray: Bool, encoder: OpaquePointer, settings: OpaquePointer,
            index: Int
        ) throws(WebImageError) {
            let channels = gray ? (hasAlpha ? 2 : 1) : (hasAlpha ? 4 : 3)
            func add<Sample>(_ rgba: [Sample], _ type: JxlDataType, graySamples: () -> [Sample]) -> JxlEncoderStatus {
                var format = JxlPixelFormat(
                    num_channels: UInt32(channels), data_type: type, endianness: JXL_NATIVE_ENDIAN, align: 0)
                let samples = gray ? graySamples() : hasAlpha ? rgba : rgbSamples(rgba)
                return samples.withUnsafeBytes { JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count) }
            }
            let status =
                switch pixels {
                case .eightBit(let bitmap):
                    add(bitmap.pixels, JXL_TYPE_UINT8) { bitmap.grayBytes(alpha: hasAlpha) }
                case .deep(let deep):
                    add(deep.pixels, JXL_TYPE_UINT16) { deep.graySamples(alpha: hasAlpha) }
                }
            try check(status, encoder, "encoding frame \(index) as JPEG XL")
        }

        /// The red, green and blue of packed RGBA samples, alpha left out.
        private static func rgbSamples<Sample>(_ rgba: [Sample]) -> [Sample] {
            let pixels = rgba.count / 4
            return [Sample](unsafeUninitializedCapacity: pixels * 3) { rgb, initialized in
                rgba.withUnsafeBufferPointer { source in
                    for pixel in 0..<pixels {
                        (rgb.baseAddress! + pixel * 3).initialize(from: source.baseAddress! + pixel * 4, count: 3)
                    }
                }
                initialized = pixels * 3
            }
        }

        /// Runs the encoder, growing the output until it is done.
        private static func collectOutput(_ encoder: OpaquePointer) throws(WebImageError) -> Data {
            var output = [UInt8](repeating: 0, count: 64 << 10)
            var written = 0
            while true {
                let (status, used) = output.withUnsafeMutableBufferPointer { buffer in
                    var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + written
                    var available = buffer.count - written
                    let status = JxlEncoderProcessOutput(encoder, &next, &available)
                    return (status, buffer.count - written - available)
                }
                written += used
                switch status {
                case JXL_ENC_SUCCESS:
                    return Data(output[0..<written])
                case JXL_ENC_NEED_MORE_OUTPUT:
                    output.append(contentsOf: repeatElement(0, count: output.count))
                default:
                    try check(status, encoder, "writing the JPEG XL file")
                }
            }
        }

        private static func check(_ status: JxlEncoderStatus, _ encoder: OpaquePointer, _ doing: String)
            throws(WebImageError)
        {
            guard status != JXL_ENC_SUCCESS else { return }
            throw .encodingFailed("\(doing): libjxl error \(JxlEncoderGetError(encoder).rawValue)")
        }
    }
#endif
