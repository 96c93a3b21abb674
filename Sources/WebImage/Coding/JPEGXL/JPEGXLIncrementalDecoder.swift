#if JPEGXL
    import CJXL
    import Foundation

    extension JPEGXLCoder: ProgressiveImageCoding {
        /// True for data that sniffs as JPEG XL (code stream or container); whether partial images
        /// appear depends on how the file was encoded (see ``makeIncrementalDecoder(options:)``).
        public func canDecodeIncrementally(_ data: Data) -> Bool { canDecode(data) }

        /// A decoder for one download. Once libjxl reports its first progressive step (the 1:8 DC
        /// image, which every lossy file stores ahead of its detail), partial images show the whole
        /// picture, blurry at first and sharper as passes arrive. Files without progressive steps
        /// (most lossless ones) show nothing until the first frame is complete. Animations show
        /// their first frame only until the data is final.
        public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
            JPEGXLIncrementalDecoder(options: options)
        }
    }

    /// Decodes a JPEG XL download with one `JxlDecoder` that keeps its state between updates: each
    /// update hands libjxl only the bytes after those it has consumed, so no byte is decoded twice.
    ///
    /// The pixel limit is checked from the basic info before libjxl is given an output buffer. The
    /// buffer (stored size, RGBA) is filled by `JxlDecoderFlushImage` after a progressive step, and
    /// copied (resampled to the thumbnail size, turned per ``ImageDecodeOptions/applyOrientation``)
    /// into each partial image. Decoding stops at the end of the first frame: an animation shows
    /// that frame, flagged ``Image/isIncremental``, until the data is final. The final data is
    /// decoded by ``JPEGXLCoder/decode(_:options:)`` (as the JPEG and GIF incremental decoders do),
    /// so the last image is exactly the one-shot decode, with every frame and metadata box.
    final class JPEGXLIncrementalDecoder: IncrementalImageDecoding {
        private let options: ImageDecodeOptions
        private var decoder: OpaquePointer?
        /// What the basic info and colour encoding said, once they arrived.
        private var header: JPEGXLDecoderSession.Header?
        /// libjxl's output buffer for the first frame, at the stored size.
        private var pixels: UnsafeMutableBufferPointer<UInt8>?
        /// Bytes of the download libjxl has consumed; the next input starts here.
        private var consumed = 0
        /// Whether a progressive step (DC or a pass) was reached, so that a flush can show something.
        private var hasProgressed = false
        private var isFirstFrameComplete = false
        /// The consumed byte count the current partial image was made at.
        private var shownAt = -1
        private var partial: Image?
        private var failure: WebImageError?
        private var input = IncrementalInput()

        init(options: ImageDecodeOptions) {
            self.options = options
        }

        deinit { reset() }

        func update(_ data: Data, isFinal: Bool) {
            input.update(data, isFinal: isFinal)
            if data.count < consumed { reset() }
            guard !isFinal, failure == nil, !isFirstFrameComplete, data.count > consumed else { return }
            do throws(WebImageError) {
                try feed(data)
            } catch {
                failure = error
            }
        }

        func currentImage() throws(WebImageError) -> Image? {
            if let final = try input.finalImage(by: JPEGXLCoder(), options: options) { return final }
            if let failure { throw failure }
            guard let decoder, pixels != nil, hasProgressed || isFirstFrameComplete else { return nil }
            if shownAt == consumed { return partial }
            shownAt = consumed
            // A flush that fails only means nothing new can be shown yet; decoding goes on.
            if isFirstFrameComplete || JxlDecoderFlushImage(decoder) == JXL_DEC_SUCCESS {
                do throws(WebImageError) {
                    partial = try makePartialImage()
                } catch {
                    failure = error
                    throw error
                }
            }
            return partial
        }

        /// Gives libjxl the bytes after ``consumed`` and runs it until it needs more.
        private func feed(_ data: Data) throws(WebImageError) {
            let decoder = try start()
            try data.withUnsafeBytesTyped { raw throws(WebImageError) in
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                guard JxlDecoderSetInput(decoder, base + consumed, raw.count - consumed) == JXL_DEC_SUCCESS else {
                    throw .badImageData("libjxl refused more input")
                }
                // libjxl may hold on to the tail of a box header; it is handed over again next time.
                defer { consumed = raw.count - JxlDecoderReleaseInput(decoder) }
                try process(decoder)
            }
        }

        /// The decoder, made and subscribed on first use.
        private func start() throws(WebImageError) -> OpaquePointer {
            if let decoder { return decoder }
            guard let decoder = JxlDecoderCreate(nil) else { throw .badImageData("libjxl could not make a decoder") }
            self.decoder = decoder
            let events =
                JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
                | JXL_DEC_FRAME_PROGRESSION.rawValue | JXL_DEC_FULL_IMAGE.rawValue
            // kPasses: a step after the DC image and after every AC pass, the finest libjxl 0.7 offers.
            guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
                JxlDecoderSetProgressiveDetail(decoder, kPasses) == JXL_DEC_SUCCESS,
                JxlDecoderSetKeepOrientation(decoder, JXL_TRUE) == JXL_DEC_SUCCESS,
                JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE) == JXL_DEC_SUCCESS
            else { throw .badImageData("libjxl could not start decoding") }
            return decoder
        }

        /// Handles events until libjxl needs more input or the first frame is complete. Each event
        /// comes once per frame, so the loop ends.
        private func process(_ decoder: OpaquePointer) throws(WebImageError) {
            while true {
                let status = JxlDecoderProcessInput(decoder)
                switch status {
                case JXL_DEC_NEED_MORE_INPUT:
                    return
                case JXL_DEC_BASIC_INFO:
                    var header = JPEGXLDecoderSession.Header()
                    _ = try JPEGXLDecoderSession.readBasicInfo(
                        decoder, into: &header, maxPixelCount: options.maxPixelCount)
                    self.header = header
                case JXL_DEC_COLOR_ENCODING:
                    guard header != nil else {
                        throw .badImageData("the JPEG XL colour encoding came before its header")
                    }
                    try JPEGXLDecoderSession.readColorEncoding(decoder, into: &header!)
                case JXL_DEC_FRAME:
                    break
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    try setOutputBuffer(decoder)
                case JXL_DEC_FRAME_PROGRESSION:
                    hasProgressed = true
                case JXL_DEC_FULL_IMAGE:
                    isFirstFrameComplete = true
                    return
                default:
                    throw JPEGXLDecoderSession.error(status, "decoding the JPEG XL download")
                }
            }
        }

        /// Allocates the first frame's pixels (the pixel limit was checked from the basic info).
        private func setOutputBuffer(_ decoder: OpaquePointer) throws(WebImageError) {
            guard let size = header?.size, pixels == nil else {
                throw .badImageData("libjxl asked for a second output buffer")
            }
            var format = JPEGXLDecoderSession.pixelFormat
            var needed = 0
            guard JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS,
                needed == size.pixelCount * 4
            else { throw .badImageData("the JPEG XL frame does not match its declared size") }
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: needed)
            buffer.initialize(repeating: 0)
            pixels = buffer
            guard JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, needed) == JXL_DEC_SUCCESS else {
                throw .badImageData("libjxl refused the output buffer")
            }
        }

        /// A copy of the output buffer as the options want it shown.
        private func makePartialImage() throws(WebImageError) -> Image {
            guard let header, let pixels else { throw .badImageData("the JPEG XL download has no pixels yet") }
            let bitmap = ImageBitmap(width: header.size.width, height: header.size.height) { buffer in
                _ = buffer.initialize(fromContentsOf: pixels)
            }
            return try options.partialImage(
                bitmap, orientation: header.orientation, format: .jpegXL, hasAlpha: header.hasAlpha,
                metadata: ImageMetadata(iccProfile: header.iccProfile).filtered(to: options.readMetadata))
        }

        /// Forgets everything decoded, for a download that started over.
        private func reset() {
            if let decoder { JxlDecoderDestroy(decoder) }
            decoder = nil
            pixels?.deallocate()
            pixels = nil
            header = nil
            consumed = 0
            hasProgressed = false
            isFirstFrameComplete = false
            shownAt = -1
            partial = nil
            failure = nil
        }
    }
#endif
