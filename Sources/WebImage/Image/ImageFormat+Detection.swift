import Foundation

extension ImageFormat {
    /// Detects the format from the leading bytes (magic numbers), as SDWebImage's
    /// `sd_imageFormatForImageData` does, plus AVIF and JPEG XL.
    ///
    /// SDWebImage decides JPEG, TIFF and BMP from the first byte alone; this follows it, except
    /// that `FF 0A` (a bare JPEG XL code stream) is JPEG XL. Returns ``undefined`` for empty or
    /// unrecognised data.
    public init(detecting data: Data) {
        self = data.withUnsafeBytes { ImageFormat.detect(UnsafeRawBufferPointer($0)) }
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
            switch String(decoding: bytes[8..<12], as: UTF8.self) {
            case "heic", "heix", "hevc", "hevx": return .heic
            case "mif1", "msf1": return .heif
            case "avif", "avis": return .avif
            default: return .undefined
            }
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
