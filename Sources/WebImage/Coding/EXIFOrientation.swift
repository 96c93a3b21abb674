/// Reads the EXIF orientation tag (0x0112) from TIFF-structured EXIF data, in either byte order.
///
/// Shared by the coders: JPEG finds the data in its APP1 segment, PNG in its `eXIf` chunk.
/// Every offset is bounds-checked, so any bytes are safe to pass.
enum EXIFOrientation {
    /// The `Exif\0\0` signature that starts a JPEG APP1 payload (and that some writers leave in PNG's eXIf).
    private static let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// From a JPEG APP1 payload, which must start with `Exif\0\0`.
    static func read(fromApp1 payload: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard payload.count >= signature.count + 8,
            signature.indices.allSatisfy({ payload[$0] == signature[$0] })
        else { return nil }
        return read(fromTIFF: UnsafeRawBufferPointer(rebasing: payload[signature.count...]))
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
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset <= tiff.count - 2 else { return nil }
            let a = Int(tiff[offset])
            let b = Int(tiff[offset + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
            return littleEndian ? first | second << 16 : first << 16 | second
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            let value: Int?
            switch u16(entry + 2) {
            case nil: return nil
            case 3: value = u16(entry + 8)  // SHORT, stored left-aligned in the value field
            case 4: value = u32(entry + 8)  // LONG, seen from some writers
            default: return .up  // the tag is there but unusable: treat as upright
            }
            guard let value else { return nil }
            return ImageOrientation(rawValue: value) ?? .up
        }
        return nil
    }
}
