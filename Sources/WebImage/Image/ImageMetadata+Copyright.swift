import Foundation

extension ImageMetadata {
    /// The metadata with EXIF and XMP reduced to who made the image and who owns it (imgproxy's
    /// `keep_copyright`); the ICC profile is kept as it is.
    ///
    /// The EXIF block becomes a fresh TIFF structure holding only IFD0's `Artist` (0x013B) and
    /// `Copyright` (0x8298) ASCII tags, in the source's byte order; the XMP packet becomes a
    /// fresh packet with only `dc:rights`, `dc:creator`, `dc:contributor`, `dc:publisher` and the
    /// `xmpRights` and `cc` properties. A block without any of them is dropped. Any bytes are safe
    /// to pass: a malformed block is dropped too.
    public func keepingCopyright() -> ImageMetadata {
        ImageMetadata(
            exif: exif.flatMap(EXIFCopyright.reduced), iccProfile: iccProfile, xmp: xmp.flatMap(XMPCopyright.reduced))
    }
}

/// An EXIF block reduced to IFD0's `Artist` and `Copyright` tags.
enum EXIFCopyright {
    /// The tags kept, in the ascending order an IFD lists them.
    static let tags = [0x013B, 0x8298]
    /// TIFF's ASCII type.
    private static let ascii = 2

    /// A fresh TIFF structure (same byte order) with the `Artist` and `Copyright` ASCII values of
    /// `tiff`'s IFD0; nil when it has neither or is not TIFF data.
    static func reduced(_ tiff: Data) -> Data? {
        let found: (littleEndian: Bool, values: [(tag: Int, bytes: [UInt8])])? = tiff.withUnsafeBytes { raw in
            guard let reader = TIFFReader(raw), let ifd = reader.firstIFD else { return nil }
            let values = tags.compactMap { tag in asciiValue(tag: tag, in: reader, ifd: ifd).map { (tag, $0) } }
            return (reader.littleEndian, values)
        }
        guard let found, !found.values.isEmpty else { return nil }
        return written(found.values, littleEndian: found.littleEndian)
    }

    /// The bytes of the ASCII entry `tag` in the IFD at `ifd`, every offset and count checked
    /// against the data; nil when absent, empty, of another type or out of bounds.
    private static func asciiValue(tag: Int, in reader: TIFFReader, ifd: Int) -> [UInt8]? {
        guard let entry = reader.entry(tag: tag, inIFDAt: ifd), reader.u16(entry + 2) == ascii,
            let count = reader.u32(entry + 4), count > 0, count <= reader.bytes.count
        else { return nil }
        let start: Int
        if count <= 4 {
            start = entry + 8
        } else {
            guard let offset = reader.u32(entry + 8) else { return nil }
            start = offset
        }
        guard start >= 0, start <= reader.bytes.count - count else { return nil }
        return Array(reader.bytes[start..<(start + count)])
    }

    /// A TIFF header, IFD0 with `values` (tag order), no next IFD, then the values longer than
    /// four bytes, each at an even offset as TIFF asks.
    private static func written(_ values: [(tag: Int, bytes: [UInt8])], littleEndian: Bool) -> Data {
        var out: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        func put16(_ value: Int) {
            let v = UInt16(truncatingIfNeeded: value)
            out += littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func put32(_ value: Int) {
            let v = UInt32(truncatingIfNeeded: value)
            let bytes = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            out += littleEndian ? bytes.reversed() : bytes
        }
        put16(42)
        put32(8)
        put16(values.count)
        let dataOffset = 8 + 2 + values.count * 12 + 4
        var trailing: [UInt8] = []
        for value in values {
            put16(value.tag)
            put16(ascii)
            put32(value.bytes.count)
            if value.bytes.count <= 4 {
                out += value.bytes + [UInt8](repeating: 0, count: 4 - value.bytes.count)
            } else {
                put32(dataOffset + trailing.count)
                trailing += value.bytes
                if trailing.count % 2 == 1 { trailing.append(0) }
            }
        }
        put32(0)
        return Data(out + trailing)
    }
}
