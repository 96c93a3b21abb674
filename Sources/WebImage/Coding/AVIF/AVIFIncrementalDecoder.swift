#if AVIF
    import CAVIF
    import Foundation

    extension AVIFCoder: ProgressiveImageCoding {
        /// True for data that sniffs as AVIF; whether partial images appear depends on the file
        /// (see ``makeIncrementalDecoder(options:)``).
        public func canDecodeIncrementally(_ data: Data) -> Bool { canDecode(data) }

        /// A decoder for one download, using libavif's incremental mode where the library allows
        /// it. A grid image (a picture stored as tiles, as cameras and big images often are) shows
        /// its rows of tiles as they are decoded, the rows below them transparent. libavif cannot
        /// decode part of one AV1 frame, so a single-tile still shows nothing until its data is
        /// complete, and an image sequence nothing until the download is final.
        public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
            AVIFIncrementalDecoder(options: options)
        }
    }

    /// Decodes an AVIF download with one `avifDecoder` in incremental mode (`allowIncremental`)
    /// reading through ``AVIFGrowingIO``: libavif answers `AVIF_RESULT_WAITING_ON_IO` where bytes
    /// are missing and resumes where it stopped when asked again, so no tile is decoded twice.
    ///
    /// Until the container's header (`ftyp`, `meta`) has arrived there is no image. Then the pixel
    /// limit is checked before anything is decoded. A partial image holds the rows libavif reports
    /// decoded (`avifDecoderDecodedRowCount`, whole rows of grid tiles; with 4:2:0 chroma all but
    /// the last, whose colour depends on the next tiles), converted to RGBA exactly as the final
    /// image will have them, the rest of the picture fully transparent (zero); it is resampled to the thumbnail size and turned
    /// per ``ImageDecodeOptions/applyOrientation`` as the final image is. The final data is decoded
    /// by ``AVIFCoder/decode(_:options:)`` (as the JPEG and GIF incremental decoders do), so the last
    /// image is exactly the one-shot decode, with EXIF and XMP (skipped while streaming: writers
    /// often put them after the pixels).
    final class AVIFIncrementalDecoder: IncrementalImageDecoding {
        private let options: ImageDecodeOptions
        private var source = AVIFGrowingIO()
        private var decoder: UnsafeMutablePointer<avifDecoder>?
        /// The parsed header: stored size, alpha, orientation, and whether it is a sequence.
        private var header: (size: PixelSize, hasAlpha: Bool, orientation: ImageOrientation, isSequence: Bool)?
        private var isComplete = false
        /// How many rows the current partial image shows.
        private var shownRows = 0
        private var partial: Image?
        private var failure: WebImageError?
        private var input = IncrementalInput()

        init(options: ImageDecodeOptions) {
            self.options = options
        }

        deinit {
            // Before `source` goes: the decoder reads through it.
            if let decoder { avifDecoderDestroy(decoder) }
        }

        func update(_ data: Data, isFinal: Bool) {
            input.update(data, isFinal: isFinal)
            if data.count < source.count { reset() }
            if !isFinal { source.append(from: data) }
        }

        func currentImage() throws(WebImageError) -> Image? {
            if let final = try input.finalImage(by: AVIFCoder(), options: options) { return final }
            if let failure { throw failure }
            do throws(WebImageError) {
                return try advance()
            } catch {
                failure = error
                throw error
            }
        }

        /// Parses the header once it is complete, then decodes whatever the new bytes allow.
        private func advance() throws(WebImageError) -> Image? {
            let decoder = try start()
            if header == nil {
                let result = avifDecoderParse(decoder)
                if result == AVIF_RESULT_WAITING_ON_IO { return nil }
                guard result == AVIF_RESULT_OK else {
                    throw AVIFDecoderSession.error(result, "reading the AVIF download")
                }
                let size = try AVIFDecoderSession.checkParsed(decoder, maxPixelCount: options.maxPixelCount)
                header = (
                    size, decoder.pointee.alphaPresent != AVIF_FALSE,
                    AVIFDecoderSession.orientation(of: decoder.pointee.image), decoder.pointee.imageCount > 1
                )
            }
            guard let header, !header.isSequence else { return nil }
            if !isComplete {
                let result = avifDecoderNextImage(decoder)
                if result == AVIF_RESULT_OK {
                    isComplete = true
                } else if result != AVIF_RESULT_WAITING_ON_IO {
                    throw AVIFDecoderSession.error(result, "decoding the AVIF download")
                }
            }
            let rows = isComplete ? header.size.height : Int(avifDecoderDecodedRowCount(decoder))
            guard rows > shownRows else { return partial }
            partial = try makeImage(rows: min(rows, header.size.height))
            shownRows = rows
            return partial
        }

        /// The decoder, made on first use and set to read the download as it grows.
        private func start() throws(WebImageError) -> UnsafeMutablePointer<avifDecoder> {
            if let decoder { return decoder }
            guard let decoder = avifDecoderCreate() else { throw .badImageData("libavif could not make a decoder") }
            AVIFDecoderSession.configure(decoder, maxFrameCount: AVIFCoder.maxFrameCount)
            decoder.pointee.allowIncremental = AVIF_TRUE
            decoder.pointee.ignoreExif = AVIF_TRUE
            decoder.pointee.ignoreXMP = AVIF_TRUE
            avifDecoderSetIO(decoder, source.io)
            self.decoder = decoder
            return decoder
        }

        /// The first `rows` decoded rows as RGBA over a transparent picture, shown as the options want.
        private func makeImage(rows: Int) throws(WebImageError) -> Image {
            guard let header, let decoder, let image = decoder.pointee.image,
                Int(image.pointee.width) == header.size.width, Int(image.pointee.height) == header.size.height
            else { throw .badImageData("the AVIF image does not match its declared size") }
            let size = header.size
            // With 4:2:0 chroma, libavif blends each row's chroma with the next chroma row's, which
            // for the last decoded row belongs to tiles not decoded yet: that row waits for them.
            let isSubsampled = image.pointee.yuvFormat == AVIF_PIXEL_FORMAT_YUV420
            let shown = rows < size.height && isSubsampled ? rows - 1 : rows
            let bitmap = try ImageBitmap(width: size.width, height: size.height) { buffer throws(WebImageError) in
                UnsafeMutableBufferPointer(rebasing: buffer[(rows * size.width * 4)...]).initialize(repeating: 0)
                try AVIFDecoderSession.writeRGBA(of: image, rows: rows, into: buffer)
                UnsafeMutableBufferPointer(rebasing: buffer[(shown * size.width * 4)...]).update(repeating: 0)
            }
            return try options.partialImage(
                bitmap, orientation: header.orientation, format: .avif,
                hasAlpha: header.hasAlpha || shown < size.height,
                metadata: AVIFDecoderSession.metadata(of: image, options.readMetadata))
        }

        /// Forgets everything decoded, for a download that started over.
        private func reset() {
            // The decoder goes before its reader: it reads through it.
            if let decoder { avifDecoderDestroy(decoder) }
            decoder = nil
            source = AVIFGrowingIO()
            header = nil
            isComplete = false
            shownRows = 0
            partial = nil
            failure = nil
        }
    }
#endif
