import Foundation

extension ImageFormat {
    /// Detects the format from the leading bytes (magic numbers), as SDWebImage's
    /// `sd_imageFormatForImageData` does, plus AVIF, JPEG XL and more HEIF brands.
    ///
    /// SDWebImage decides JPEG, TIFF and BMP from the first byte alone; this follows it, except
    /// that `FF 0A` (a bare JPEG XL code stream) is JPEG XL. Returns ``undefined`` for empty or
    /// unrecognised data.
    public init(detecting data: Data) {
        self = data.withUnsafeBytes { ImageFormat.detect(UnsafeRawBufferPointer($0)) }
    }

    /// The format an ISO BMFF `ftyp` box names: its major brand decides HEIC (`heic`, `heix`,
    /// `hevc`, `hevx`, `heim`, `heis`), AVIF (`avif`, `avis`) or plain HEIF (`mif1`, `msf1`), as
    /// SDWebImage's brands do; a `mif1`/`msf1` file that lists `avif` or `avis` among its
    /// compatible brands is AV1-coded, so AVIF.
    private static func isoBrand(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        func brand(at offset: Int) -> String { String(decoding: bytes[offset..<offset + 4], as: UTF8.self) }
        switch brand(at: 8) {
        case "heic", "heix", "hevc", "hevx", "heim", "heis": return .heic
        case "avif", "avis": return .avif
        case "mif1", "msf1":
            // Compatible brands follow the minor version, up to the end of the box.
            let boxSize = (0..<4).reduce(0) { $0 << 8 | Int(bytes[$1]) }
            let end = min(boxSize, bytes.count)
            for offset in stride(from: 16, to: end - 3, by: 4) where ["avif", "avis"].contains(brand(at: offset)) {
                return .avif
            }
            return .heif
        default: return .undefined
        }
    }

    static func detect(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        guard let first = bytes.first else { return .undefined }
        func matches(_ ascii: String, at offset: Int) -> Bool {
            let expected = Array(ascii.utf8)
            guard bytes.count >= offset + expected.count else { return false }
            return expected.indices.allSatisfy { bytes[offset + $0] == expected[$0] }
        }
        switch first {
        case 0xFF:
            return bytes.count >= 2 && bytes[1] == 0x0A ? .jpegXL : .jpeg
        case 0x89: return .png
        case 0x47: return .gif
        case 0x49, 0x4D: return .tiff
        case 0x42: return .bmp
        case 0x52:
            return matches("RIFF", at: 0) && matches("WEBP", at: 8) ? .webp : .undefined
        case 0x00:
            // The container's signature box: 0x87 is one byte here, not a UTF-8 character.
            let jxlSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
            if bytes.count >= 12, jxlSignature.indices.allSatisfy({ bytes[$0] == jxlSignature[$0] }) {
                return .jpegXL
            }
            guard bytes.count >= 12, matches("ftyp", at: 4) else { return .undefined }
            return isoBrand(bytes)
        case 0x25:
            return matches("%PDF", at: 0) ? .pdf : .undefined
        case 0x3C:
            let tail = bytes.count > 100 ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - 100)...]) : bytes
            let marker = Array("</svg>".utf8)
            guard tail.count >= marker.count else { return .undefined }
            for start in 0...(tail.count - marker.count)
            where marker.indices.allSatisfy({ tail[start + $0] == marker[$0] }) {
                return .svg
            }
            return .undefined
        default:
            return .undefined
        }
    }
}
