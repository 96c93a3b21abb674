import Foundation

extension BMPCoder {
    /// Encodes the upright first frame (scaled down to fit `maxPixelSize`): 24-bit BGR with a
    /// 40-byte header when opaque, else 32-bit BGRA with a 108-byte V4 header whose masks name
    /// the alpha channel. Rows are stored bottom-up, as most readers expect.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws(WebImageError)
        -> Data
    {
        guard format == .bmp else { throw .unsupportedFormat(format) }
        let bitmap = try image.bitmap.preparedForEncoding(orientation: image.orientation, options: options)
        let alpha = bitmap.containsTransparency
        let width = bitmap.width
        let height = bitmap.height
        guard width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw .encodingFailed("\(width)x\(height) is too large for a BMP file")
        }
        let infoSize = alpha ? 108 : 40
        let rowBytes = alpha ? width * 4 : (width * 3 + 3) / 4 * 4
        let (pixelBytes, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        let offset = 14 + infoSize
        guard !overflow, pixelBytes <= Int(UInt32.max) - offset else {
            throw .encodingFailed("\(width)x\(height) is too large for a BMP file")
        }
        var out = [UInt8]()
        out.reserveCapacity(offset + pixelBytes)
        func u16(_ value: Int) { out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: UInt32) { out += (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        out += [0x42, 0x4D]
        u32(UInt32(offset + pixelBytes))
        u32(0)
        u32(UInt32(offset))
        u32(UInt32(infoSize))
        u32(UInt32(width))
        u32(UInt32(height))
        u16(1)
        u16(alpha ? 32 : 24)
        u32(alpha ? 3 : 0)  // BI_BITFIELDS : BI_RGB
        u32(UInt32(pixelBytes))
        u32(2835)  // 72 dpi, in pixels per metre
        u32(2835)
        u32(0)
        u32(0)
        if alpha {
            for mask: UInt32 in [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000] { u32(mask) }
            out += Array("BGRs".utf8)  // LCS_sRGB, stored little-endian as 'sRGB'
            out += [UInt8](repeating: 0, count: 48)  // endpoints and gamma, unused for sRGB
        }
        let pixels = bitmap.pixels
        let padding = rowBytes - width * (alpha ? 4 : 3)
        for y in stride(from: height - 1, through: 0, by: -1) {
            var at = y * width * 4
            for _ in 0..<width {
                out +=
                    alpha
                    ? [pixels[at + 2], pixels[at + 1], pixels[at], pixels[at + 3]]
                    : [pixels[at + 2], pixels[at + 1], pixels[at]]
                at += 4
            }
            if padding > 0 { out += [UInt8](repeating: 0, count: padding) }
        }
        return Data(out)
    }
}
