#if JPEGXL
    import CJXL
    import Foundation

    extension JPEGXLDecoderSession {
        /// What the first pass learns.
        struct Header {
            var size = PixelSize(width: 0, height: 0)
            var hasAlpha = false
            var orientation = ImageOrientation.up
            var durations: [Double] = []
            var loopCount = 0
            var iccProfile: Data?
            var exif: Data?
            var xmp: Data?
            var prefersSRGB = false
            var isGray = false
            var bitsPerSample = 8
        }

        /// Reads the basic info, colour encoding and frame headers of the file in `bytes` (and its
        /// `Exif` and `xml ` boxes when `readsBoxes`), decoding no pixels. The pixel limit is checked
        /// as soon as the basic info arrives, before libjxl allocates anything for the frames.
        static func readHeaders(
            _ decoder: OpaquePointer, bytes: UnsafeMutableRawBufferPointer, count: Int, maxPixelCount: Int,
            maxFrameCount: Int, readsBoxes: Bool
        ) throws(WebImageError) -> Header {
            var events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
            let boxes = JPEGXLMetadataBoxes()
            if readsBoxes {
                events |= JXL_DEC_BOX.rawValue
                guard JxlDecoderSetDecompressBoxes(decoder, JXL_TRUE) == JXL_DEC_SUCCESS else {
                    throw .badImageData("libjxl could not start decoding")
                }
            }
            // Orientation is applied by the coder (or not, per option), and alpha comes out straight.
            guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
                JxlDecoderSetKeepOrientation(decoder, JXL_TRUE) == JXL_DEC_SUCCESS,
                JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE) == JXL_DEC_SUCCESS,
                JxlDecoderSetInput(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
                    == JXL_DEC_SUCCESS
            else { throw .badImageData("libjxl could not start decoding") }
            JxlDecoderCloseInput(decoder)
            var header = Header()
            var ticks = 0.0
            while true {
                let status = JxlDecoderProcessInput(decoder)
                if status != JXL_DEC_BOX_NEED_MORE_OUTPUT { boxes.finish(decoder) }
                switch status {
                case JXL_DEC_BOX:
                    boxes.begin(decoder)
                case JXL_DEC_BOX_NEED_MORE_OUTPUT:
                    boxes.grow(decoder)
                case JXL_DEC_BASIC_INFO:
                    ticks = try readBasicInfo(decoder, into: &header, maxPixelCount: maxPixelCount)
                case JXL_DEC_COLOR_ENCODING:
                    try readColorEncoding(decoder, into: &header)
                case JXL_DEC_FRAME:
                    var frame = JxlFrameHeader()
                    guard JxlDecoderGetFrameHeader(decoder, &frame) == JXL_DEC_SUCCESS else {
                        throw .badImageData("libjxl could not read a JPEG XL frame header")
                    }
                    guard header.durations.count < maxFrameCount else {
                        throw .badImageData("the JPEG XL file has more than \(maxFrameCount) frames")
                    }
                    header.durations.append(Double(frame.duration) * ticks)
                case JXL_DEC_SUCCESS:
                    guard !header.durations.isEmpty else { throw .badImageData("the JPEG XL file has no frames") }
                    header.exif = boxes.exif
                    header.xmp = boxes.xmp
                    return header
                default:
                    throw error(status, "reading the JPEG XL file")
                }
            }
        }

        /// Copies the basic info into `header`, refusing a picture above `maxPixelCount` before
        /// libjxl allocates anything for its frames. Returns the seconds per animation tick.
        static func readBasicInfo(
            _ decoder: OpaquePointer, into header: inout Header, maxPixelCount: Int
        ) throws(WebImageError) -> Double {
            var info = JxlBasicInfo()
            guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
                throw .badImageData("libjxl could not read the JPEG XL header")
            }
            let width = Int(info.xsize)
            let height = Int(info.ysize)
            guard width > 0, height > 0 else {
                throw .badImageData("the JPEG XL file claims a size of \(width)x\(height) pixels")
            }
            if width * height > maxPixelCount {
                throw .imageTooLarge(width: width, height: height, limit: maxPixelCount)
            }
            header.size = PixelSize(width: width, height: height)
            header.hasAlpha = info.alpha_bits > 0
            header.orientation = ImageOrientation(exifValue: Int(info.orientation.rawValue))
            header.isGray = info.num_color_channels == 1
            header.bitsPerSample = Int(info.bits_per_sample)
            header.prefersSRGB = info.uses_original_profile == JXL_FALSE
            guard info.have_animation == JXL_TRUE else { return 0 }
            header.loopCount = Int(info.animation.num_loops)
            guard info.animation.tps_numerator > 0 else { return 0 }
            return Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator)
        }

        /// Asks for sRGB pixels when the file is lossy, then records the profile they come out in.
        static func readColorEncoding(_ decoder: OpaquePointer, into header: inout Header) throws(WebImageError) {
            if header.prefersSRGB { try preferSRGB(decoder, isGray: header.isGray) }
            header.iccProfile = dataProfile(decoder)
        }

        /// The ICC profile of the pixels libjxl will output, or nil when they are sRGB (as most
        /// files say with an enumerated colour encoding rather than a profile).
        private static func dataProfile(_ decoder: OpaquePointer) -> Data? {
            var encoding = JxlColorEncoding()
            if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding)
                == JXL_DEC_SUCCESS, isSRGB(encoding)
            {
                return nil
            }
            var size = 0
            guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
                size > 0
            else { return nil }
            var profile = Data(count: size)
            let status = profile.withUnsafeMutableBytes {
                JxlDecoderGetColorAsICCProfile(
                    decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, $0.bindMemory(to: UInt8.self).baseAddress, size)
            }
            return status == JXL_DEC_SUCCESS ? profile : nil
        }

        /// sRGB primaries and white point (or grey) with the sRGB transfer curve.
        private static func isSRGB(_ encoding: JxlColorEncoding) -> Bool {
            guard encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB,
                encoding.white_point == JXL_WHITE_POINT_D65
            else { return false }
            return encoding.color_space == JXL_COLOR_SPACE_GRAY
                || (encoding.color_space == JXL_COLOR_SPACE_RGB && encoding.primaries == JXL_PRIMARIES_SRGB)
        }
    }
#endif
