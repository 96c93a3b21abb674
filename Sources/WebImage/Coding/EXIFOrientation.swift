import Foundation

/// Reads the EXIF orientation tag (0x0112) from TIFF-structured EXIF data, in either byte order.
///
/// Shared by the coders: JPEG finds the data in its APP1 segment, PNG in its `eXIf` chunk.
/// Every offset is bounds-checked, so any bytes are safe to pass.
enum EXIFOrientation {
    /// The `Exif\0\0` signature that starts a JPEG APP1 payload (and that some writers leave in PNG's eXIf).
    static let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// The TIFF data of a JPEG APP1 payload, which must start with `Exif\0\0` (nil otherwise).
    static func tiff(inApp1 payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard payload.count >= signature.count + 8,
            signature.indices.allSatisfy({ payload[$0] == signature[$0] })
        else { return nil }
        return UnsafeRawBufferPointer(rebasing: payload[signature.count...])
    }

    /// From a JPEG APP1 payload, which must start with `Exif\0\0`.
    static func read(fromApp1 payload: UnsafeRawBufferPointer) -> ImageOrientation? {
        tiff(inApp1: payload).flatMap(read(fromTIFF:))
    }

    /// From an EXIF block that is bare TIFF data or TIFF data behind a stray `Exif\0\0` prefix.
    static func read(fromExifBlock bytes: [UInt8]) -> ImageOrientation? {
        bytes.withUnsafeBytes { raw in
            if raw.count >= signature.count, signature.indices.allSatisfy({ raw[$0] == signature[$0] }) {
                return read(fromTIFF: UnsafeRawBufferPointer(rebasing: raw[signature.count...]))
            }
            return read(fromTIFF: raw)
        }
    }

    /// From TIFF data (`II*\0` or `MM\0*`). Nil when there is no usable tag; a tag holding a value
    /// outside 1…8 reads as `.up`, as decoders treat it.
    static func read(fromTIFF tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard let reader = TIFFReader(tiff), let ifd = reader.firstIFD,
            let entry = reader.entry(tag: 0x0112, inIFDAt: ifd)
        else { return nil }
        let value: Int?
        switch reader.u16(entry + 2) {
        case nil: return nil
        case 3: value = reader.u16(entry + 8)  // SHORT, stored left-aligned in the value field
        case 4: value = reader.u32(entry + 8)  // LONG, seen from some writers
        default: return .up  // the tag is there but unusable: treat as upright
        }
        guard let value else { return nil }
        return ImageOrientation(rawValue: value) ?? .up
    }
}

extension EXIFOrientation {
    /// `tiff` with its IFD0 orientation tag rewritten to 1 (upright), in place and in the
    /// block's byte order. A block without a usable tag is returned unchanged (it reads upright).
    static func settingUpright(inTIFF tiff: Data) -> Data {
        var copy = tiff
        let position: (offset: Int, width: Int, littleEndian: Bool)? = tiff.withUnsafeBytes { raw in
            guard let reader = TIFFReader(raw), let ifd = reader.firstIFD,
                let entry = reader.entry(tag: 0x0112, inIFDAt: ifd)
            else { return nil }
            switch reader.u16(entry + 2) {
            case 3 where reader.u16(entry + 8) != nil: return (entry + 8, 2, reader.littleEndian)
            case 4 where reader.u32(entry + 8) != nil: return (entry + 8, 4, reader.littleEndian)
            default: return nil
            }
        }
        guard let position else { return tiff }
        let start = copy.startIndex + position.offset
        for index in 0..<position.width {
            // The value 1, least significant byte first or last.
            let isLowByte = position.littleEndian ? index == 0 : index == position.width - 1
            copy[start + index] = isLowByte ? 1 : 0
        }
        return copy
    }
}

/// Bounds-checked reads of TIFF-structured data (EXIF) in its byte order: every read outside the
/// data is nil, so any bytes are safe to pass.
struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    let littleEndian: Bool

    /// Nil unless `bytes` starts with a TIFF header (`II*\0` or `MM\0*`).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard u16(2) == 42 else { return nil }
    }

    func u16(_ offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = Int(bytes[offset])
        let b = Int(bytes[offset + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ offset: Int) -> Int? {
        guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }

    /// The offset of IFD0.
    var firstIFD: Int? { u32(4) }

    /// The offset of the IFD after the one at `ifd` (IFD1 after IFD0); nil at the end of the chain.
    func nextIFD(after ifd: Int) -> Int? {
        guard let entries = u16(ifd), let next = u32(ifd + 2 + entries * 12), next > 0 else { return nil }
        return next
    }

    /// The offset of the 12-byte entry for `tag` in the IFD at `ifd`.
    func entry(tag: Int, inIFDAt ifd: Int) -> Int? {
        guard let entries = u16(ifd) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let found = u16(entry) else { return nil }
            if found == tag { return entry }
        }
        return nil
    }

    /// The value of a SHORT or LONG entry `tag` in the IFD at `ifd`.
    func integer(tag: Int, inIFDAt ifd: Int) -> Int? {
        guard let entry = entry(tag: tag, inIFDAt: ifd) else { return nil }
        switch u16(entry + 2) {
        case 3: return u16(entry + 8)
        case 4: return u32(entry + 8)
        default: return nil
        }
    }
}
