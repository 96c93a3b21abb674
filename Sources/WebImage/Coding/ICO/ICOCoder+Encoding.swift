import Foundation

extension ICOCoder {
    /// Encodes one PNG entry (see ``ICOCoder``): the PNG the ``PNGCoder`` writes for the first
    /// frame, scaled down to fit 256×256 and `maxPixelSize`, behind a 22-byte directory.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard format == .ico else { throw .unsupportedFormat(format) }
        var pngOptions = options
        pngOptions.firstFrameOnly = true
        let limit = Self.maxDimension
        pngOptions.maxPixelSize =
            options.maxPixelSize.isPositive
            ? PixelSize(width: min(options.maxPixelSize.width, limit), height: min(options.maxPixelSize.height, limit))
            : PixelSize(width: limit, height: limit)
        let png = [UInt8](try PNGCoder().encode(image, as: .png, options: pngOptions))
        guard png.count <= Int(UInt32.max) - 22,
            let (width, height, bitsPerPixel) = png.withUnsafeBytes({ ICODirectory.pngHeader($0) })
        else {
            throw .encodingFailed("the PNG for the ICO entry (\(png.count) bytes) has no IHDR header")
        }
        var out: [UInt8] = [0, 0, 1, 0, 1, 0]
        func u16(_ value: Int) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) { out += (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        // 256 is written as 0.
        out += [UInt8(width % 256), UInt8(height % 256), 0, 0]
        u16(1)  // colour planes
        u16(bitsPerPixel)
        u32(png.count)
        u32(22)  // the payload follows this one entry
        out += png
        return Data(out)
    }
}
