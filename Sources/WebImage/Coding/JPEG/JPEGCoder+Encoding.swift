import Foundation

extension JPEGCoder {
    /// JPEG's largest side (libjpeg refuses more).
    static let maxDimension = 65_500

    /// SDWebImage's `compressionQuality` (0…1) as a libjpeg quality (1…100).
    static func libjpegQuality(for compressionQuality: Double) -> Int {
        let quality = ImageEncodeOptions.effectiveQuality(compressionQuality)
        return max(1, Int(clamping: quality * 100, rounding: .toNearestOrAwayFromZero))
    }

    /// Encodes the first frame, turned upright, scaled to fit ``ImageEncodeOptions/maxPixelSize``,
    /// with transparency composited onto ``ImageEncodeOptions/backgroundColor``. With
    /// ``ImageEncodeOptions/maxFileSize`` the quality is binary-searched for the largest output
    /// that fits (the smallest output when none fits). ``ImageEncodeOptions/progressive`` writes a
    /// progressive JPEG, ``ImageEncodeOptions/chromaSubsampling`` sets the colour resolution,
    /// ``EncodeEffort/smallest`` optimizes the Huffman tables, and the blocks of
    /// ``ImageEncodeOptions/keptMetadata`` go into APP1 (EXIF, XMP) and APP2 (ICC) segments. A gray
    /// image (see ``ImageEncodeOptions/writesGrayscale``) is written with one component.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard format == .jpeg else { throw .unsupportedFormat(format) }
        let bitmap = try Self.prepareForEncoding(image, options: options)
        guard bitmap.width <= Self.maxDimension, bitmap.height <= Self.maxDimension else {
            throw .encodingFailed(
                "\(bitmap.width)x\(bitmap.height) exceeds JPEG's limit of \(Self.maxDimension) pixels a side")
        }
        var metadata = image.metadata.forEncoding(options.keptMetadata)
        let grayMetadata = GrayscaleEncoding.grayMetadata(for: bitmap, metadata: metadata, options: options)
        if let grayMetadata { metadata = grayMetadata }
        return try bitmap.pixels.withUnsafeBufferPointer { rgba throws(WebImageError) in
            let encode = { (quality: Int) throws(WebImageError) in
                let jpeg = try JPEGShim.encode(
                    rgba: rgba, size: bitmap.size, quality: quality, progressive: options.progressive,
                    subsampling: options.chromaSubsampling, optimizeCoding: options.effort == .smallest,
                    grayscale: grayMetadata != nil)
                return metadata.isEmpty ? jpeg : JPEGMetadata.inserting(metadata, into: jpeg)
            }
            guard let maxFileSize = options.maxFileSize else {
                return try encode(Self.libjpegQuality(for: options.compressionQuality))
            }
            return try Self.largestFitting(maxFileSize, encode: encode)
        }
    }

    /// The best quality of 1...100 whose file fits `limit` (quality 1's file if none does).
    private static func largestFitting(_ limit: Int, encode: (Int) throws(WebImageError) -> Data) throws(WebImageError)
        -> Data
    {
        let smallest = try encode(1)
        guard smallest.count <= limit else { return smallest }
        // Steps 0...98 are qualities 100 down to 2.
        return try FileSizeSearch.bestWithin(limit, steps: 99, smallest: smallest) { step throws(WebImageError) in
            try encode(100 - step)
        }
    }

    /// The pixels to encode: upright, resized, opaque.
    static func prepareForEncoding(_ image: Image, options: ImageEncodeOptions) throws(WebImageError) -> ImageBitmap {
        var bitmap = image.bitmap.applyingOrientation(image.orientation)
        if options.maxPixelSize.isPositive {
            let fitted = DecodeGeometry.scaledSize(
                bitmap.size, fitting: options.maxPixelSize, preserveAspectRatio: true, shouldScaleUp: false)
            if fitted != bitmap.size { bitmap = try bitmap.resampled(to: fitted) }
        }
        // A decoded JPEG (hasAlpha false) needs no scan of its 4 bytes a pixel.
        if image.hasAlpha && !bitmap.isOpaque {
            bitmap = bitmap.composited(onto: options.backgroundColor)
        }
        return bitmap
    }
}

extension ImageBitmap {
    /// Whether every alpha byte is 255; reads two pixels per 64-bit word.
    var isOpaque: Bool {
        pixels.withUnsafeBytes { raw in
            // The alpha bytes (offsets 3 and 7) of two pixels, whatever the byte order.
            let mask = UInt64(littleEndian: 0xFF00_0000_FF00_0000)
            let words = raw.count / 8
            var combined = mask
            for index in 0..<words {
                combined &= raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                if index & 1023 == 1023 && combined != mask { return false }
            }
            guard combined == mask else { return false }
            var i = words * 8 + 3
            while i < raw.count {
                if raw[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// Straight-alpha "over" onto an opaque colour (its alpha is ignored).
    package func composited(onto background: RGBA8) -> ImageBitmap {
        let bg = (UInt32(background.r), UInt32(background.g), UInt32(background.b))
        return pixels.withUnsafeBufferPointer { src in
            ImageBitmap(width: width, height: height) { dst in
                var i = 0
                while i < src.count {
                    let a = UInt32(src[i + 3])
                    let inverse = 255 - a
                    dst[i] = UInt8((UInt32(src[i]) * a + bg.0 * inverse + 127) / 255)
                    dst[i + 1] = UInt8((UInt32(src[i + 1]) * a + bg.1 * inverse + 127) / 255)
                    dst[i + 2] = UInt8((UInt32(src[i + 2]) * a + bg.2 * inverse + 127) / 255)
                    dst[i + 3] = 255
                    i += 4
                }
            }
        }
    }
}
