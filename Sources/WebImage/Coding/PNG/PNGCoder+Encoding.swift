import CWebImageShims
import Foundation

extension PNGCoder {
    /// Encodes an animation as an APNG with all its frames (unless
    /// ``ImageEncodeOptions/firstFrameOnly``; see `encodeAnimation`). Encodes the upright pixels
    /// (``Image/orientation`` applied) of a still image or first frame as an 8-bit PNG, scaled down first to fit ``ImageEncodeOptions/maxPixelSize``;
    /// a still image with an ``Image/deepBitmap`` as a 16-bit PNG of it.
    /// PNG is lossless, so `compressionQuality` does not apply (as in SDWebImage);
    /// ``ImageEncodeOptions/effort`` sets the zlib level and filters (see ``EncodeEffort``).
    ///
    /// The result is RGBA, or RGB when the image has no alpha channel and every pixel is opaque
    /// (gray and alpha, or gray, when every pixel has R = G = B: see
    /// ``ImageEncodeOptions/writesGrayscale``); or, when the image has at most 256 colours and that
    /// is smaller, a palette of them (with their alphas). Alpha stays straight, so decoding an 8-bit RGBA PNG and encoding it again is
    /// bit-exact, including the colour of fully transparent pixels. The blocks of
    /// ``ImageEncodeOptions/keptMetadata`` follow IHDR as `iCCP`, `eXIf` and an XMP `iTXt` chunk.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard format == .png || format == .undefined else { throw .unsupportedFormat(format) }
        if image.isAnimated, !options.firstFrameOnly {
            return try encodeAnimation(image, options: options, level: Self.zlibLevel(options.effort))
        }
        if let deep = try image.deepBitmapForEncoding(options) {
            return try encodeDeep(deep, image: image, options: options)
        }
        var bitmap = image.bitmap.applyingOrientation(image.orientation)
        if options.maxPixelSize.isPositive {
            let fitted = DecodeGeometry.scaledSize(
                bitmap.size, fitting: options.maxPixelSize, preserveAspectRatio: true, shouldScaleUp: false)
            bitmap = try bitmap.resampled(to: fitted)
        }
        guard let width = UInt32(exactly: bitmap.width), let height = UInt32(exactly: bitmap.height) else {
            throw .encodingFailed("PNG: \(bitmap.width)x\(bitmap.height) is too large for PNG")
        }
        let level = Self.zlibLevel(options.effort)
        let keepAlpha = image.hasAlpha || bitmap.containsTransparency
        let encodeTruecolor = { (level: Int32) throws(WebImageError) -> Data in
            try Self.encoded { output, length, message, capacity in
                bitmap.pixels.withUnsafeBufferPointer { pixels in
                    cwi_png_encode_rgba(
                        pixels.baseAddress, width, height, keepAlpha ? 1 : 0, level,
                        options.effort == .fastest ? 0 : 1, &output, &length, message, capacity)
                }
            }
        }
        let metadata = image.metadata.forEncoding(options.keptMetadata)
        let grayMetadata = GrayscaleEncoding.grayMetadata(for: bitmap, metadata: metadata, options: options)
        let gray = grayMetadata.map { _ in bitmap.grayBytes(alpha: keepAlpha) }
        let encodeDirect = { (level: Int32) throws(WebImageError) -> Data in
            guard let gray else { return try encodeTruecolor(level) }
            return try Self.encoded { output, length, message, capacity in
                gray.withUnsafeBufferPointer { pixels in
                    cwi_png_encode_gray(
                        pixels.baseAddress, width, height, keepAlpha ? 1 : 0, level,
                        options.effort == .fastest ? 0 : 1, &output, &length, message, capacity)
                }
            }
        }
        var direct = try encodeDirect(level)
        if options.effort == .smallest {
            // zlib's level 9 sometimes comes out a little larger than 6 on noisy images.
            let balanced = try encodeDirect(6)
            if balanced.count < direct.count { direct = balanced }
        }
        let withMetadata = { (png: Data, metadata: ImageMetadata) in
            metadata.isEmpty ? png : PNGMetadata.inserting(metadata, into: png)
        }
        let directMetadata = grayMetadata ?? metadata
        guard let indexed = PNGPalette(bitmap) else { return withMetadata(direct, directMetadata) }
        let paletted = try Self.encoded { output, length, message, capacity in
            indexed.indices.withUnsafeBufferPointer { indices in
                indexed.entries.withUnsafeBufferPointer { entries in
                    cwi_png_encode_indexed(
                        indices.baseAddress, width, height, entries.baseAddress, Int32(indexed.count),
                        Int32(indexed.bitDepth), level, &output, &length, message, capacity)
                }
            }
        }
        return paletted.count < direct.count ? withMetadata(paletted, metadata) : withMetadata(direct, directMetadata)
    }

    /// A 16-bit PNG of `deep` (RGBA, RGB, or gray with or without alpha, as the 8-bit path
    /// chooses), with the same metadata chunks. Lossless: decoding it with
    /// ``ImageDecodeOptions/preservesHighBitDepth`` gives `deep` back exactly.
    private func encodeDeep(_ deep: ImageBitmap16, image: Image, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard let width = UInt32(exactly: deep.width), let height = UInt32(exactly: deep.height) else {
            throw .encodingFailed("PNG: \(deep.width)x\(deep.height) is too large for PNG")
        }
        let keepAlpha = image.hasAlpha || deep.containsTransparency
        let metadata = image.metadata.forEncoding(options.keptMetadata)
        let grayMetadata = GrayscaleEncoding.grayMetadata(metadata: metadata, options: options) { deep.isGray }
        let samples = grayMetadata == nil ? deep.pixels : deep.graySamples(alpha: keepAlpha)
        let level = Self.zlibLevel(options.effort)
        let png = try Self.encoded { output, length, message, capacity in
            samples.withUnsafeBufferPointer { samples in
                cwi_png_encode_deep(
                    samples.baseAddress, width, height, keepAlpha ? 1 : 0, grayMetadata == nil ? 0 : 1, level,
                    options.effort == .fastest ? 0 : 1, &output, &length, message, capacity)
            }
        }
        let kept = grayMetadata ?? metadata
        return kept.isEmpty ? png : PNGMetadata.inserting(kept, into: png)
    }

    static func zlibLevel(_ effort: EncodeEffort) -> Int32 {
        switch effort {
        case .fastest: 3
        case .balanced: 6
        case .smallest: 9
        }
    }

    /// Runs one of the shim's encoders and takes its buffer over.
    static func encoded(
        _ body: (inout UnsafeMutablePointer<UInt8>?, inout Int, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(WebImageError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = message.withUnsafeMutableBufferPointer { buffer in
            body(&output, &length, buffer.baseAddress!, buffer.count)
        }
        guard status == 0, let output else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .encodingFailed("PNG: \(text.isEmpty ? "unknown libpng error" : text)")
        }
        return Data(bytesNoCopy: output, count: length, deallocator: .custom { pointer, _ in cwi_png_free(pointer) })
    }
}

/// The colours of an image that has at most 256: an index per pixel and the palette, entries
/// that are not opaque first (PNG's tRNS lists alphas from the first entry on).
struct PNGPalette {
    /// RGBA, 4 bytes an entry.
    private(set) var entries: [UInt8] = []
    private(set) var indices: [UInt8]
    var count: Int { entries.count / 4 }
    /// The fewest bits a pixel that can index every entry: 1, 2, 4 or 8.
    var bitDepth: Int { count <= 2 ? 1 : count <= 4 ? 2 : count <= 16 ? 4 : 8 }

    /// Entries that are not opaque first (tRNS covers them), then by value, so the palette of
    /// an image is always the same.
    private static func paletteOrder(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let aOpaque = a[3] == 255
        let bOpaque = b[3] == 255
        if aOpaque != bOpaque { return bOpaque }
        return a.lexicographicallyPrecedes(b)
    }

    /// Nil when the image has more than 256 colours (found as soon as the 257th appears, before
    /// anything the size of the image is allocated).
    init?(_ bitmap: ImageBitmap) {
        let pixelCount = bitmap.width * bitmap.height
        var colours: [UInt32: UInt8] = [:]
        colours.reserveCapacity(257)
        let fits = bitmap.pixels.withUnsafeBytes { raw -> Bool in
            var last: UInt32?
            for pixel in raw.bindMemory(to: UInt32.self).prefix(pixelCount) where pixel != last {
                last = pixel
                if colours[pixel] == nil {
                    guard colours.count < 256 else { return false }
                    colours[pixel] = 0
                }
            }
            return true
        }
        guard fits, !colours.isEmpty else { return nil }
        let palette: [[UInt8]] = colours.keys.map { pixel in withUnsafeBytes(of: pixel) { Array($0) } }
            .sorted(by: Self.paletteOrder)
        for (index, entry) in palette.enumerated() {
            colours[entry.withUnsafeBytes { $0.load(as: UInt32.self) }] = UInt8(index)
            entries += entry
        }
        // A second pass writes each pixel's index.
        indices = bitmap.pixels.withUnsafeBytes { raw in
            let pixels = raw.bindMemory(to: UInt32.self)
            return [UInt8](unsafeUninitializedCapacity: pixelCount) { buffer, initialized in
                var last: UInt32?
                var lastIndex: UInt8 = 0
                for position in 0..<pixelCount {
                    let pixel = pixels[position]
                    if pixel != last {
                        lastIndex = colours[pixel] ?? 0
                        last = pixel
                    }
                    buffer[position] = lastIndex
                }
                initialized = pixelCount
            }
        }
    }
}
