import CWebImageShims
import Foundation

extension PNGCoder {
    /// Encodes the upright pixels (``Image/orientation`` applied) of the still image or first
    /// frame as an 8-bit PNG, scaled down first to fit ``ImageEncodeOptions/maxPixelSize``.
    /// PNG is lossless, so `compressionQuality` does not apply (as in SDWebImage);
    /// ``ImageEncodeOptions/effort`` sets the zlib level and filters (see ``EncodeEffort``).
    ///
    /// The result is RGBA, or RGB when the image has no alpha channel and every pixel is opaque;
    /// or, when the image has at most 256 colours and that is smaller, a palette of them (with
    /// their alphas). Alpha stays straight, so decoding an 8-bit RGBA PNG and encoding it again is
    /// bit-exact, including the colour of fully transparent pixels.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard format == .png || format == .undefined else { throw .unsupportedFormat(format) }
        var bitmap = image.bitmap.applyingOrientation(image.orientation)
        if options.maxPixelSize.isPositive {
            let fitted = DecodeGeometry.scaledSize(
                bitmap.size, fitting: options.maxPixelSize, preserveAspectRatio: true, shouldScaleUp: false)
            bitmap = try bitmap.resampled(to: fitted)
        }
        guard let width = UInt32(exactly: bitmap.width), let height = UInt32(exactly: bitmap.height) else {
            throw .encodingFailed("PNG: \(bitmap.width)x\(bitmap.height) is too large for PNG")
        }
        let level: Int32 =
            switch options.effort {
            case .fastest: 3
            case .balanced: 6
            case .smallest: 9
            }
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
        var truecolor = try encodeTruecolor(level)
        if options.effort == .smallest {
            // zlib's level 9 sometimes comes out a little larger than 6 on noisy images.
            let balanced = try encodeTruecolor(6)
            if balanced.count < truecolor.count { truecolor = balanced }
        }
        guard let indexed = PNGPalette(bitmap) else { return truecolor }
        let paletted = try Self.encoded { output, length, message, capacity in
            indexed.indices.withUnsafeBufferPointer { indices in
                indexed.entries.withUnsafeBufferPointer { entries in
                    cwi_png_encode_indexed(
                        indices.baseAddress, width, height, entries.baseAddress, Int32(indexed.count),
                        Int32(indexed.bitDepth), level, &output, &length, message, capacity)
                }
            }
        }
        return paletted.count < truecolor.count ? paletted : truecolor
    }

    /// Runs one of the shim's encoders and takes its buffer over.
    private static func encoded(
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

    /// Nil when the image has more than 256 colours (found as soon as the 257th appears).
    init?(_ bitmap: ImageBitmap) {
        let pixelCount = bitmap.width * bitmap.height
        var colours: [UInt32: UInt8] = [:]
        colours.reserveCapacity(257)
        var indices = [UInt8](repeating: 0, count: pixelCount)
        var order: [UInt32] = []
        let complete = bitmap.pixels.withUnsafeBytes { raw -> Bool in
            let pixels = raw.bindMemory(to: UInt32.self)
            var last: UInt32?
            var lastIndex: UInt8 = 0
            for position in 0..<pixelCount {
                let pixel = pixels[position]
                if pixel != last {
                    if let known = colours[pixel] {
                        lastIndex = known
                    } else {
                        guard order.count < 256 else { return false }
                        lastIndex = UInt8(order.count)
                        colours[pixel] = lastIndex
                        order.append(pixel)
                    }
                    last = pixel
                }
                indices[position] = lastIndex
            }
            return true
        }
        guard complete, !order.isEmpty else { return nil }
        // Translucent entries first, then the opaque ones; renumber the indices to match.
        let rgba = order.map { pixel in withUnsafeBytes(of: pixel) { Array($0) } }
        let sorted = rgba.indices.sorted { (rgba[$0][3] == 255 ? 1 : 0, $0) < (rgba[$1][3] == 255 ? 1 : 0, $1) }
        var renumbered = [UInt8](repeating: 0, count: sorted.count)
        for (new, old) in sorted.enumerated() {
            renumbered[old] = UInt8(new)
            entries += rgba[old]
        }
        for position in indices.indices { indices[position] = renumbered[Int(indices[position])] }
        self.indices = indices
    }
}
