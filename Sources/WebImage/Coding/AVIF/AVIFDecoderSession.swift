#if AVIF
    import CAVIF
    import Foundation

    /// Owns an `avifDecoder` over a private copy of the file (libavif keeps pointers into the data
    /// for the decoder's lifetime), parsed with the pixel and frame limits set before any AV1 data
    /// is decoded. Remembers its position so that sequential frames cost one decode each.
    ///
    /// Not thread-safe: `DecoderSessionAnimationProvider` keeps it behind a lock.
    final class AVIFDecoderSession: AnimationDecoderSession {
        private let bytes: UnsafeMutableRawBufferPointer
        private let decoder: UnsafeMutablePointer<avifDecoder>
        let size: PixelSize
        let frameCount: Int
        let hasAlpha: Bool
        /// Seconds per frame (a still has one entry, 0).
        let durations: [Double]
        /// libavif 0.11 reads no repetition count: sequences loop forever.
        let loopCount = 0
        /// The size frames are resampled to, or nil for the stored size.
        var outputSize: PixelSize?
        /// The index of the frame last decoded into `decoder.image`, or -1.
        private var currentIndex = -1

        /// Parses `data`; a picture larger than `maxPixelCount` or a sequence of more than
        /// `maxFrameCount` frames is refused before decoding.
        init(data: Data, maxPixelCount: Int, maxFrameCount: Int) throws(WebImageError) {
            guard let decoder = avifDecoderCreate() else { throw .badImageData("libavif could not make a decoder") }
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
            if !data.isEmpty { data.copyBytes(to: copy) }
            Self.configure(decoder, maxFrameCount: maxFrameCount)
            decoder.pointee.ignoreXMP = AVIF_FALSE
            decoder.pointee.ignoreExif = AVIF_FALSE
            let parsed = avifDecoderSetIOMemory(
                decoder, copy.baseAddress!.assumingMemoryBound(to: UInt8.self), data.count)
            let result = parsed == AVIF_RESULT_OK ? avifDecoderParse(decoder) : parsed
            let size: PixelSize
            do throws(WebImageError) {
                guard result == AVIF_RESULT_OK else { throw Self.error(result, "reading the AVIF file") }
                size = try Self.checkParsed(decoder, maxPixelCount: maxPixelCount)
            } catch {
                avifDecoderDestroy(decoder)
                copy.deallocate()
                throw error
            }
            self.bytes = copy
            self.decoder = decoder
            self.size = size
            self.frameCount = Int(decoder.pointee.imageCount)
            self.hasAlpha = decoder.pointee.alphaPresent != AVIF_FALSE
            var durations: [Double] = []
            durations.reserveCapacity(frameCount)
            for index in 0..<frameCount {
                var timing = avifImageTiming()
                let known = avifDecoderNthImageTiming(decoder, UInt32(index), &timing) == AVIF_RESULT_OK
                durations.append(known && timing.duration.isFinite ? max(0, timing.duration) : 0)
            }
            self.durations = durations
        }

        /// Limits set before parsing: libavif's own size limit (16384 × 16384; it refuses higher
        /// ones), so that a picture above ours is told apart (`imageTooLarge`) from a broken file,
        /// and at most `maxFrameCount` frames.
        static func configure(_ decoder: UnsafeMutablePointer<avifDecoder>, maxFrameCount: Int) {
            decoder.pointee.maxThreads = 1
            decoder.pointee.imageSizeLimit = UInt32(AVIF_DEFAULT_IMAGE_SIZE_LIMIT)
            decoder.pointee.imageCountLimit = UInt32(clamping: max(1, maxFrameCount))
        }

        /// The size of a parsed file, refused above `maxPixelCount`; that limit then bounds what the
        /// AV1 decoder may allocate.
        static func checkParsed(
            _ decoder: UnsafeMutablePointer<avifDecoder>, maxPixelCount: Int
        ) throws(WebImageError) -> PixelSize {
            guard let image = decoder.pointee.image else { throw .badImageData("libavif parsed no image") }
            let width = Int(image.pointee.width)
            let height = Int(image.pointee.height)
            guard width > 0, height > 0, decoder.pointee.imageCount > 0 else {
                throw .badImageData("the AVIF file claims a size of \(width)x\(height) pixels")
            }
            if width * height > maxPixelCount {
                throw .imageTooLarge(width: width, height: height, limit: maxPixelCount)
            }
            decoder.pointee.imageSizeLimit = UInt32(
                clamping: min(max(1, maxPixelCount), Int(AVIF_DEFAULT_IMAGE_SIZE_LIMIT)))
            return PixelSize(width: width, height: height)
        }

        deinit {
            avifDecoderDestroy(decoder)
            bytes.deallocate()
        }

        /// How the picture must be turned to show upright (see ``orientation(of:)``).
        var orientation: ImageOrientation { Self.orientation(of: decoder.pointee.image) }

        /// The container's `irot` (anticlockwise quarter turns) then `imir`, as the EXIF orientation
        /// that does the same.
        static func orientation(of image: UnsafeMutablePointer<avifImage>?) -> ImageOrientation {
            guard let image else { return .up }
            let flags = image.pointee.transformFlags
            let angle = flags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.pointee.irot.angle) % 4 : 0
            let mirror = flags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.pointee.imir.mode) : -1
            // Rows: angle 0...3; columns: no mirror, top-bottom (mode 0), left-right (mode 1).
            let table: [[Int]] = [[1, 4, 2], [8, 5, 7], [3, 2, 4], [6, 7, 5]]
            return ImageOrientation(exifValue: table[angle][mirror + 1])
        }

        /// Bytes libavif holds for the current frame's YUV (and alpha) planes, about.
        var heldByteCount: Int { currentIndex < 0 ? 0 : size.pixelCount * (hasAlpha ? 4 : 3) }

        /// The container's ICC profile, EXIF and XMP (after the first frame is parsed).
        func metadata(_ kinds: ImageMetadata.Kinds) -> ImageMetadata {
            guard let image = decoder.pointee.image else { return ImageMetadata() }
            return Self.metadata(of: image, kinds)
        }

        /// The ICC profile, EXIF and XMP libavif attached to `image`.
        static func metadata(of image: UnsafeMutablePointer<avifImage>, _ kinds: ImageMetadata.Kinds) -> ImageMetadata {
            func bytes(_ data: avifRWData) -> Data? {
                guard data.size > 0, let pointer = data.data else { return nil }
                return Data(bytes: pointer, count: data.size)
            }
            var metadata = ImageMetadata()
            if kinds.contains(.iccProfile) { metadata.iccProfile = bytes(image.pointee.icc) }
            if kinds.contains(.exif), let exif = bytes(image.pointee.exif) {
                // Some writers keep JPEG's `Exif\0\0` in front of the TIFF data.
                metadata.exif = exif.starts(with: EXIFOrientation.signature) ? Data(exif.dropFirst(6)) : exif
            }
            if kinds.contains(.xmp) { metadata.xmp = bytes(image.pointee.xmp) }
            return metadata
        }

        /// Bits per sample of the coded picture (8, 10 or 12).
        var bitDepth: Int { Int(decoder.pointee.image?.pointee.depth ?? 8) }

        /// Frame `index` as 8-bit RGBA (10- and 12-bit planes are scaled down by libavif), at
        /// ``outputSize``.
        func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
            let image = try decodedImage(at: index)
            let bitmap = try ImageBitmap(width: size.width, height: size.height) { buffer throws(WebImageError) in
                try Self.writeRGBA(of: image, into: buffer)
            }
            guard let outputSize else { return bitmap }
            return try bitmap.resampled(to: outputSize)
        }

        /// Frame `index` as 16-bit RGBA with straight alpha, at the stored size (``outputSize`` is
        /// left to the caller): libavif scales each 10- or 12-bit value to the full 16-bit range.
        func deepFrame(at index: Int) throws(WebImageError) -> ImageBitmap16 {
            let image = try decodedImage(at: index)
            return try ImageBitmap16(width: size.width, height: size.height) { buffer throws(WebImageError) in
                var rgb = avifRGBImage()
                avifRGBImageSetDefaults(&rgb, image)
                rgb.depth = 16
                rgb.format = AVIF_RGB_FORMAT_RGBA
                rgb.alphaPremultiplied = AVIF_FALSE
                rgb.pixels = UnsafeMutableRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: UInt8.self) }
                rgb.rowBytes = image.pointee.width * 8
                let result = avifImageYUVToRGB(image, &rgb)
                guard result == AVIF_RESULT_OK else { throw Self.error(result, "converting the AVIF frame to RGB") }
            }
        }

        /// Decodes frame `index` into `decoder.image` (unless it is there already) and checks its size.
        private func decodedImage(at index: Int) throws(WebImageError) -> UnsafeMutablePointer<avifImage> {
            guard index >= 0, index < frameCount else {
                throw .invalidArgument("frame index \(index) is outside 0..<\(frameCount)")
            }
            if index != currentIndex {
                let result =
                    index == currentIndex + 1
                    ? avifDecoderNextImage(decoder) : avifDecoderNthImage(decoder, UInt32(index))
                guard result == AVIF_RESULT_OK else {
                    currentIndex = -1
                    _ = avifDecoderReset(decoder)
                    throw Self.error(result, "decoding frame \(index) of the AVIF file")
                }
                currentIndex = index
            }
            guard let image = decoder.pointee.image,
                Int(image.pointee.width) == size.width, Int(image.pointee.height) == size.height
            else {
                throw .badImageData("frame \(index) of the AVIF file does not match its declared size")
            }
            return image
        }

        /// Converts the first `rows` rows of `image` (all of them by default) to 8-bit RGBA with
        /// straight alpha, packed, at the start of `buffer`.
        static func writeRGBA(
            of image: UnsafeMutablePointer<avifImage>, rows: Int? = nil, into buffer: UnsafeMutableBufferPointer<UInt8>
        ) throws(WebImageError) {
            var source = image
            var view: UnsafeMutablePointer<avifImage>?
            defer { view.map { avifImageDestroy($0) } }
            if let rows, rows < Int(image.pointee.height) {
                // A view of the top rows: the planes below them may not be written yet.
                guard let top = avifImageCreateEmpty() else { throw .badImageData("libavif could not make an image") }
                view = top
                var rect = avifCropRect(x: 0, y: 0, width: image.pointee.width, height: UInt32(rows))
                let result = avifImageSetViewRect(top, image, &rect)
                guard result == AVIF_RESULT_OK else { throw error(result, "viewing the decoded AVIF rows") }
                source = top
            }
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, source)
            rgb.depth = 8
            rgb.format = AVIF_RGB_FORMAT_RGBA
            rgb.alphaPremultiplied = AVIF_FALSE
            rgb.pixels = buffer.baseAddress
            rgb.rowBytes = image.pointee.width * 4
            let result = avifImageYUVToRGB(source, &rgb)
            guard result == AVIF_RESULT_OK else { throw error(result, "converting the AVIF frame to RGB") }
        }

        /// A typed error for a libavif result, in words.
        static func error(_ result: avifResult, _ doing: String) -> WebImageError {
            .badImageData("\(doing): \(String(cString: avifResultToString(result)))")
        }
    }
#endif
