import Foundation

/// A BMP file's headers, checked against the file before any pixel is touched: the file
/// header, the DIB header (core, info, V2–V5 or OS/2 2.x), the channel masks and the palette.
struct BMPHeader {
    enum Compression: UInt32 {
        case rgb = 0
        case rle8 = 1
        case rle4 = 2
        case bitfields = 3
        case alphaBitfields = 6
    }

    /// A channel mask: where the bits sit and how many there are.
    struct Mask: Equatable {
        let mask: UInt32
        let shift: UInt32
        let maximum: UInt32

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = mask == 0 ? 0 : mask >> shift
        }

        /// The 8-bit value of this channel in `pixel`.
        func value(in pixel: UInt32) -> UInt8 {
            guard maximum > 0 else { return 0 }
            let raw = (pixel & mask) >> shift
            return UInt8((UInt64(raw) * 255 + UInt64(maximum / 2)) / UInt64(maximum))
        }
    }

    let width: Int
    let height: Int
    let isTopDown: Bool
    let bitsPerPixel: Int
    let compression: Compression
    let pixelOffset: Int
    /// Red, green, blue and alpha masks for 16- and 32-bit pixels (alpha's is 0 when absent).
    let masks: (red: Mask, green: Mask, blue: Mask, alpha: Mask)
    /// Palette entries for 1-, 4- and 8-bit pixels, as opaque RGBA.
    let palette: [RGBA8]

    var hasAlpha: Bool { masks.alpha.maximum > 0 && (bitsPerPixel == 16 || bitsPerPixel == 32) }

    /// Bytes per row of uncompressed pixels, padded to 4 bytes.
    var rowBytes: Int { (width * bitsPerPixel + 31) / 32 * 4 }

    init(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        func u16(_ offset: Int) -> UInt32 { UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 }
        func u32(_ offset: Int) -> UInt32 { u16(offset) | u16(offset + 2) << 16 }
        guard bytes.count >= 26, bytes[0] == 0x42, bytes[1] == 0x4D else {
            throw .badImageData("not a BMP file (no 'BM' signature, or shorter than its headers)")
        }
        let infoSize = Int(u32(14))
        guard [12, 16, 40, 52, 56, 64, 108, 124].contains(infoSize), 14 + infoSize <= bytes.count else {
            throw .badImageData("the BMP header size \(infoSize) is unknown or longer than the file")
        }
        pixelOffset = Int(u32(10))
        let rawWidth: Int
        let rawHeight: Int
        var compressionValue: UInt32 = 0
        var colorsUsed = 0
        if infoSize == 12 {
            // BITMAPCOREHEADER: 16-bit unsigned sizes, 3-byte palette entries.
            rawWidth = Int(u16(18))
            rawHeight = Int(Int16(bitPattern: UInt16(u16(20))))
            bitsPerPixel = Int(u16(24))
        } else {
            rawWidth = Int(Int32(bitPattern: u32(18)))
            rawHeight = Int(Int32(bitPattern: u32(22)))
            bitsPerPixel = Int(u16(28))
            if infoSize >= 40 {
                compressionValue = u32(30)
                colorsUsed = Int(u32(46))
            }
        }
        guard [1, 4, 8, 16, 24, 32].contains(bitsPerPixel) else {
            throw .badImageData("BMP pixels of \(bitsPerPixel) bits are not supported")
        }
        guard let compression = Compression(rawValue: compressionValue) else {
            throw .badImageData("BMP compression \(compressionValue) is not supported")
        }
        self.compression = compression
        guard rawWidth > 0, rawHeight != 0, rawHeight != Int(Int32.min) else {
            throw .badImageData("the BMP file claims a size of \(rawWidth)x\(rawHeight) pixels")
        }
        width = rawWidth
        height = abs(rawHeight)
        isTopDown = rawHeight < 0
        switch compression {
        case .rle8 where bitsPerPixel != 8, .rle4 where bitsPerPixel != 4:
            throw .badImageData("BMP run-length compression does not match \(bitsPerPixel)-bit pixels")
        case .bitfields where bitsPerPixel != 16 && bitsPerPixel != 32,
            .alphaBitfields where bitsPerPixel != 16 && bitsPerPixel != 32:
            throw .badImageData("BMP bit fields need 16- or 32-bit pixels, not \(bitsPerPixel)")
        case .rle8, .rle4:
            if isTopDown { throw .badImageData("a run-length BMP cannot be stored top-down") }
        default: break
        }

        // Masks: inside V2+ headers, or right after a 40-byte header.
        var maskValues: [UInt32] = []
        var afterMasks = 14 + infoSize
        if compression == .bitfields || compression == .alphaBitfields {
            let count = compression == .alphaBitfields ? 4 : 3
            if infoSize >= 52 {
                maskValues = (0..<count).map { u32(54 + 4 * $0) }
                if infoSize >= 56, count == 3 { maskValues.append(u32(66)) }
            } else {
                guard afterMasks + 4 * count <= bytes.count else {
                    throw .badImageData("the BMP file ends inside its channel masks")
                }
                maskValues = (0..<count).map { u32(afterMasks + 4 * $0) }
                afterMasks += 4 * count
            }
        } else if bitsPerPixel == 16 {
            maskValues = [0x7C00, 0x03E0, 0x001F]
        } else if bitsPerPixel == 32 || bitsPerPixel == 24 {
            // BI_RGB: the fourth byte of a 32-bit pixel is unused, as Windows and Pillow read it.
            maskValues = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF]
        }
        while maskValues.count < 4 { maskValues.append(0) }
        masks = (Mask(maskValues[0]), Mask(maskValues[1]), Mask(maskValues[2]), Mask(maskValues[3]))

        // The palette, between the headers and the pixels, never more entries than the depth allows.
        if bitsPerPixel <= 8 {
            let entrySize = infoSize == 12 ? 3 : 4
            let limit = 1 << bitsPerPixel
            let declared = colorsUsed == 0 ? limit : colorsUsed
            guard declared <= limit else {
                throw .badImageData("the BMP palette declares \(declared) colours for \(bitsPerPixel)-bit pixels")
            }
            // A palette cut short by the pixel data keeps the entries that fit before it; indices
            // past them read as black.
            let available = min(declared, max(0, (min(pixelOffset, bytes.count) - afterMasks) / entrySize))
            guard available > 0 else { throw .badImageData("the BMP file has no palette for its indexed pixels") }
            palette = (0..<available).map { index in
                let at = afterMasks + index * entrySize
                return RGBA8(r: bytes[at + 2], g: bytes[at + 1], b: bytes[at], a: 255)
            }
        } else {
            palette = []
        }
        guard pixelOffset >= 14 + infoSize, pixelOffset < bytes.count else {
            throw .badImageData("the BMP pixel data starts at \(pixelOffset), outside the file")
        }
    }
}
