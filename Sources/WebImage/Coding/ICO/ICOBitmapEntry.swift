import Foundation

/// Decodes an ICO entry that holds a bitmap: a DIB (a BMP without its 14-byte file header) whose
/// height counts both the colour pixels and the 1-bit AND mask stored after them. The DIB is
/// read by the BMP decoder (1, 4, 8, 16, 24 and 32 bits, palettes and bit fields; run-length
/// compression is refused, since the mask's place would be unknown).
///
/// Transparency, as Windows and Pillow read it: a 32-bit pixel's fourth byte is its alpha; other
/// depths take alpha from the mask (a set bit is transparent, the pixel keeps its colour). A
/// 32-bit entry whose alpha bytes are all 0 was written before icons had alpha, so its mask
/// decides instead, as browsers do. A mask the entry is too short to hold leaves the pixels opaque.
enum ICOBitmapEntry {
    static func decode(_ dib: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws(WebImageError)
        -> ImageBitmap
    {
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(dib[at + $1]) << (8 * $1) } }
        guard dib.count >= 40 else { throw .badImageData("the ICO bitmap is shorter than its header") }
        let infoSize = Int(u32(0))
        let compression = u32(16)
        guard compression == 0 || compression == 3 else {
            throw .badImageData("ICO bitmaps with compression \(compression) are not supported")
        }
        let bitsPerPixel = Int(dib[14]) | Int(dib[15]) << 8
        // Where the pixels start: after the header, the masks a 40-byte header is followed by
        // for bit fields, and the palette.
        let colorsUsed = Int(u32(32))
        let paletteEntries = colorsUsed > 0 ? colorsUsed : (bitsPerPixel <= 8 ? 1 << min(bitsPerPixel, 8) : 0)
        let pixelStart = infoSize + (compression == 3 && infoSize == 40 ? 12 : 0) + paletteEntries * 4
        guard pixelStart < dib.count else {
            throw .badImageData(
                "the ICO bitmap's pixels would start at byte \(pixelStart), past its \(dib.count) bytes")
        }
        // A BMP file of the colour pixels, for the BMP decoder: a file header, then the DIB with
        // its height halved.
        var file = Data(count: 14)
        file.reserveCapacity(14 + dib.count)
        file[0] = 0x42
        file[1] = 0x4D
        for (at, value) in [(2, 14 + dib.count), (10, 14 + pixelStart)] {
            for byte in 0..<4 { file[at + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        }
        file.append(contentsOf: dib)
        let halfHeight = Int32(bitPattern: u32(8)) / 2
        for byte in 0..<4 { file[22 + byte] = UInt8(truncatingIfNeeded: halfHeight >> (8 * byte)) }

        return try file.withUnsafeBytesTyped { bytes throws(WebImageError) in
            let header = try BMPHeader(bytes)
            try DecodeGeometry.checkPixelLimit(width: header.width, height: header.height, options: options)
            return try ImageBitmap(width: header.width, height: header.height) { buffer throws(WebImageError) in
                try BMPCoder.decodeRows(bytes, header: header, into: buffer)
                applyTransparency(bytes, header: header, compression: compression, to: buffer)
            }
        }
    }

    /// The 32-bit alpha bytes, or the AND mask, into the decoded pixels' alpha.
    private static func applyTransparency(
        _ bytes: UnsafeRawBufferPointer, header: BMPHeader, compression: UInt32,
        to buffer: UnsafeMutableBufferPointer<UInt8>
    ) {
        let width = header.width
        let height = header.height
        // The colour rows fit in `bytes` (the BMP decoder checked), and a mask row is never
        // longer than a colour row: none of this overflows.
        let maskStart = header.pixelOffset + header.rowBytes * height
        let maskRowBytes = (width + 31) / 32 * 4
        let hasMask = maskStart + maskRowBytes * height <= bytes.count
        func row(_ stored: Int) -> Int { header.isTopDown ? stored : height - 1 - stored }

        if header.bitsPerPixel == 32 && compression == 0 {
            var anyAlpha = false
            for stored in 0..<height {
                let source = header.pixelOffset + stored * header.rowBytes
                let out = row(stored) * width * 4
                for x in 0..<width {
                    let alpha = bytes[source + x * 4 + 3]
                    buffer[out + x * 4 + 3] = alpha
                    if alpha != 0 { anyAlpha = true }
                }
            }
            if anyAlpha { return }
            for index in stride(from: 3, to: buffer.count, by: 4) { buffer[index] = 255 }
        }
        guard hasMask else { return }
        for stored in 0..<height {
            let source = maskStart + stored * maskRowBytes
            let out = row(stored) * width * 4
            for x in 0..<width where bytes[source + x / 8] & (0x80 >> (x % 8)) != 0 {
                buffer[out + x * 4 + 3] = 0
            }
        }
    }
}
