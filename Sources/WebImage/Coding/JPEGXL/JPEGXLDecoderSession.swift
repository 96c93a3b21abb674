#if JPEGXL
    import CJXL
    import Foundation

    /// Owns a `JxlDecoder` over a private copy of the file. A first pass reads the basic info
    /// (refusing a picture above the pixel limit before anything else is decoded), the colour
    /// encoding and every frame header without decoding pixels; frames are then decoded in order,
    /// rewinding only to go back. The whole file is given at once and the input closed, so a
    /// truncated file ends in an error, never in a wait for more data.
    ///
    /// Frames come out as libjxl composites them (coalesced, full canvas), turned by ``turn``: libjxl
    /// is told to keep the stored orientation, so that thumbnails are resampled before turning.
    /// Not thread-safe: `DecoderSessionAnimationProvider` keeps it behind a lock.
    final class JPEGXLDecoderSession: AnimationDecoderSession {
        private let bytes: UnsafeMutableRawBufferPointer
        private let count: Int
        private let decoder: OpaquePointer
        let size: PixelSize
        let hasAlpha: Bool
        let orientation: ImageOrientation
        /// Seconds per frame (a still has one entry, 0).
        let durations: [Double]
        /// 0 means forever.
        let loopCount: Int
        /// The profile the decoded pixels are in, or nil when they are sRGB.
        let iccProfile: Data?
        /// The `Exif` box's TIFF data and the `xml ` box, when asked for.
        let exif: Data?
        let xmp: Data?
        /// Bits per sample of the colour channels as the header declares them: more than 8 for a
        /// deep file (floats count their whole width).
        let bitsPerSample: Int
        var frameCount: Int { durations.count }
        /// The size frames are resampled to (as stored), or nil for the stored size.
        var outputSize: PixelSize?
        /// How frames are turned after resampling: ``orientation`` to show them upright, or `.up`
        /// to keep them as stored.
        var turn = ImageOrientation.up
        /// Whether the pixels of a lossy (XYB) file are asked for in sRGB; libjxl would otherwise
        /// pick linear sRGB for one carrying an ICC profile.
        private let prefersSRGB: Bool
        private let isGray: Bool
        /// The index of the next frame the decoder will give.
        private var nextIndex = 0

        /// Reads `data`'s headers; a picture larger than `maxPixelCount` or an animation of more than
        /// `maxFrameCount` frames is refused before any pixel is decoded. `readsBoxes` collects the
        /// EXIF and XMP boxes too.
        init(data: Data, maxPixelCount: Int, maxFrameCount: Int, readsBoxes: Bool = false) throws(WebImageError) {
            guard let decoder = JxlDecoderCreate(nil) else { throw .badImageData("libjxl could not make a decoder") }
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
            if !data.isEmpty { data.copyBytes(to: copy) }
            var header: Header
            do {
                header = try Self.readHeaders(
                    decoder, bytes: copy, count: data.count, maxPixelCount: maxPixelCount, maxFrameCount: maxFrameCount,
                    readsBoxes: readsBoxes)
            } catch {
                JxlDecoderDestroy(decoder)
                copy.deallocate()
                throw error
            }
            self.bytes = copy
            self.count = data.count
            self.decoder = decoder
            self.size = header.size
            self.hasAlpha = header.hasAlpha
            self.orientation = header.orientation
            self.durations = header.durations
            self.loopCount = header.loopCount
            self.iccProfile = header.iccProfile
            self.exif = header.exif
            self.xmp = header.xmp
            self.prefersSRGB = header.prefersSRGB
            self.isGray = header.isGray
            self.bitsPerSample = header.bitsPerSample
            try restart(skipping: 0)
        }

        deinit {
            JxlDecoderDestroy(decoder)
            bytes.deallocate()
        }

        /// Bytes libjxl holds between frames (the previous canvas and reference frames), about.
        var heldByteCount: Int { nextIndex == 0 ? 0 : size.pixelCount * 4 }

        /// Frame `index` as 8-bit RGBA with straight alpha, at ``outputSize``, turned by ``turn``.
        func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
            let bitmap = try decodingFrame(index) { () throws(WebImageError) in
                try ImageBitmap(width: size.width, height: size.height) { buffer throws(WebImageError) in
                    try fill(UnsafeMutableRawBufferPointer(buffer), format: Self.pixelFormat, frame: index)
                }
            }
            let resampled =
                try outputSize.map { size throws(WebImageError) in try bitmap.resampled(to: size) } ?? bitmap
            return turn == .up ? resampled : resampled.applyingOrientation(turn)
        }

        /// Frame `index` as 16-bit RGBA with straight alpha, at the stored size and orientation
        /// (``outputSize`` and ``turn`` are left to the caller).
        func deepFrame(at index: Int) throws(WebImageError) -> ImageBitmap16 {
            try decodingFrame(index) { () throws(WebImageError) in
                try ImageBitmap16(width: size.width, height: size.height) { buffer throws(WebImageError) in
                    try fill(UnsafeMutableRawBufferPointer(buffer), format: Self.deepPixelFormat, frame: index)
                }
            }
        }

        /// Brings the decoder to frame `index` and runs `decode` there, which fills the frame's
        /// pixels; a failure leaves the session to start over on the next call.
        private func decodingFrame<T>(_ index: Int, _ decode: () throws(WebImageError) -> T) throws(WebImageError)
            -> T
        {
            guard index >= 0, index < frameCount else {
                throw .invalidArgument("frame index \(index) is outside 0..<\(frameCount)")
            }
            if index != nextIndex { try restart(skipping: index) }
            do {
                try advanceToFrame(index)
                let pixels = try decode()
                nextIndex = index + 1
                return pixels
            } catch {
                // Start over on the next call rather than trust a decoder left mid-frame.
                nextIndex = -1
                throw error
            }
        }

        /// Rewinds to the start of the file and skips `frames` frames.
        private func restart(skipping frames: Int) throws(WebImageError) {
            _ = JxlDecoderReleaseInput(decoder)
            JxlDecoderRewind(decoder)
            let events = JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue
            guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
                JxlDecoderSetInput(decoder, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
                    == JXL_DEC_SUCCESS
            else { throw .badImageData("libjxl could not restart the JPEG XL decoder") }
            JxlDecoderCloseInput(decoder)
            if frames > 0 { JxlDecoderSkipFrames(decoder, frames) }
            nextIndex = frames
        }

        /// Runs the decoder to the next frame's header, where its pixels can be asked for.
        private func advanceToFrame(_ index: Int) throws(WebImageError) {
            while true {
                let status = JxlDecoderProcessInput(decoder)
                switch status {
                case JXL_DEC_COLOR_ENCODING:
                    if prefersSRGB { try Self.preferSRGB(decoder, isGray: isGray) }
                case JXL_DEC_FRAME:
                    return
                default:
                    throw Self.error(status, "decoding frame \(index) of the JPEG XL file")
                }
            }
        }

        /// Hands libjxl `buffer` for the current frame's pixels in `format` and decodes into it.
        private func fill(_ buffer: UnsafeMutableRawBufferPointer, format: JxlPixelFormat, frame index: Int)
            throws(WebImageError)
        {
            var format = format
            var needed = 0
            guard JxlDecoderProcessInput(decoder) == JXL_DEC_NEED_IMAGE_OUT_BUFFER,
                JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS, needed == buffer.count,
                JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, buffer.count) == JXL_DEC_SUCCESS
            else { throw .badImageData("frame \(index) of the JPEG XL file does not match its declared size") }
            let status = JxlDecoderProcessInput(decoder)
            guard status == JXL_DEC_FULL_IMAGE else {
                throw Self.error(status, "decoding frame \(index) of the JPEG XL file")
            }
        }

        /// RGBA, 8 bits per channel, rows packed.
        static var pixelFormat: JxlPixelFormat {
            JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        }

        /// RGBA, 16 bits per channel in the host's byte order, rows packed.
        static var deepPixelFormat: JxlPixelFormat {
            JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT16, endianness: JXL_NATIVE_ENDIAN, align: 0)
        }

        /// Asks for the pixels of an XYB-coded file in sRGB (grey or colour).
        static func preferSRGB(_ decoder: OpaquePointer, isGray: Bool) throws(WebImageError) {
            var srgb = JxlColorEncoding()
            JxlColorEncodingSetToSRGB(&srgb, isGray ? JXL_TRUE : JXL_FALSE)
            guard JxlDecoderSetPreferredColorProfile(decoder, &srgb) == JXL_DEC_SUCCESS else {
                throw .badImageData("libjxl refused to decode the JPEG XL file to sRGB")
            }
        }

        /// A typed error for a libjxl status, in words.
        static func error(_ status: JxlDecoderStatus, _ doing: String) -> WebImageError {
            switch status {
            case JXL_DEC_NEED_MORE_INPUT: .badImageData("\(doing): the file is truncated")
            case JXL_DEC_SUCCESS: .badImageData("\(doing): the file has no more frames")
            case JXL_DEC_ERROR: .badImageData("\(doing): the data is corrupt")
            default: .badImageData("\(doing): unexpected decoder state \(status.rawValue)")
            }
        }
    }
#endif
