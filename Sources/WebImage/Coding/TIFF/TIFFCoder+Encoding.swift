#if TIFF
    import CWebImageShims
    import Foundation

    extension TIFFCoder {
        /// Encodes `image` as TIFF, deflate-compressed with horizontal prediction (lossless): RGB,
        /// or RGBA with unassociated alpha when the image has transparency; gray (with its alpha)
        /// when every page is gray (``ImageEncodeOptions/writesGrayscale``). The upright pixels are
        /// written, scaled down to fit `maxPixelSize`; each frame of an animation becomes a page
        /// unless `firstFrameOnly`. A still image with an ``Image/deepBitmap`` is written at 16 bits
        /// a sample. Quality settings do not apply.
        public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
            -> Data
        {
            guard format == .tiff else { throw .unsupportedFormat(format) }
            if let deep = try image.deepBitmapForEncoding(options) {
                return try encodeDeep(deep, image: image, options: options)
            }
            var bitmaps: [ImageBitmap] = []
            if let animation = image.animation, animation.frameCount > 1, !options.firstFrameOnly {
                for index in 0..<animation.frameCount {
                    let frame = try animation.frame(at: index)
                    bitmaps.append(
                        try frame.bitmap.preparedForEncoding(orientation: image.orientation, options: options))
                }
            } else {
                bitmaps = [try image.bitmap.preparedForEncoding(orientation: image.orientation, options: options)]
            }
            let hasAlpha = bitmaps.contains { $0.containsTransparency }
            let gray = bitmaps.allSatisfy {
                GrayscaleEncoding.grayMetadata(for: $0, metadata: image.metadata, options: options) != nil
            }
            var widths = bitmaps.map { UInt32($0.width) }
            var heights = bitmaps.map { UInt32($0.height) }
            var size = 0
            var output: UnsafeMutablePointer<UInt8>?
            let message = Self.withPagePointers(bitmaps) { pages in
                TIFFFile.withMessageBuffer { err, errlen in
                    output = cwi_tiff_write(
                        pages, &widths, &heights, Int32(bitmaps.count), hasAlpha ? 1 : 0, gray ? 1 : 0, &size, err,
                        errlen)
                    return output == nil ? -1 : 0
                }
            }
            guard let output else { throw .encodingFailed("libtiff: \(message ?? "no output")") }
            return Data(bytesNoCopy: output, count: size, deallocator: .free)
        }

        /// One 16-bit page of `deep`: RGB or RGBA, gray as the 8-bit path chooses it.
        private func encodeDeep(_ deep: ImageBitmap16, image: Image, options: ImageEncodeOptions)
            throws(WebImageError) -> Data
        {
            let hasAlpha = deep.containsTransparency
            let gray =
                GrayscaleEncoding.grayMetadata(metadata: image.metadata, options: options) { deep.isGray } != nil
            var width = UInt32(clamping: deep.width)
            var height = UInt32(clamping: deep.height)
            var size = 0
            var output: UnsafeMutablePointer<UInt8>?
            let message = deep.pixels.withUnsafeBufferPointer { pixels in
                var pages: [UnsafePointer<UInt16>?] = [pixels.baseAddress]
                return TIFFFile.withMessageBuffer { err, errlen in
                    output = cwi_tiff_write_deep(
                        &pages, &width, &height, 1, hasAlpha ? 1 : 0, gray ? 1 : 0, &size, err, errlen)
                    return output == nil ? -1 : 0
                }
            }
            guard let output else { throw .encodingFailed("libtiff: \(message ?? "no output")") }
            return Data(bytesNoCopy: output, count: size, deallocator: .free)
        }

        /// Runs `body` with a C array of pointers to each bitmap's pixels, valid for the call.
        private static func withPagePointers<R>(
            _ bitmaps: [ImageBitmap], _ body: (UnsafePointer<UnsafePointer<UInt8>?>) -> R
        ) -> R {
            func nest(_ index: Int, _ pointers: [UnsafePointer<UInt8>?]) -> R {
                guard index < bitmaps.count else { return pointers.withUnsafeBufferPointer { body($0.baseAddress!) } }
                return bitmaps[index].pixels.withUnsafeBufferPointer { nest(index + 1, pointers + [$0.baseAddress]) }
            }
            return nest(0, [])
        }
    }
#endif
