/// Reads the orientation tag (274) from the TIFF-structured data of a PNG `eXIf` chunk.
///
/// Returns nil when there is no readable tag; every offset is bounds-checked, so any bytes are safe.
enum PNGExifOrientation {
    static func orientation(fromTIFF bytes: [UInt8]) -> ImageOrientation? {
        var data = bytes[...]
        // Some writers keep JPEG's APP1 "Exif\0\0" prefix, which eXIf should not have.
        let app1Prefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        if data.starts(with: app1Prefix) { data = data.dropFirst(6) }
        let tiff = Array(data)
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        func read16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at])
            let b = Int(tiff[at + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func read32(_ at: Int) -> Int? {
            guard let high = read16(bigEndian ? at : at + 2), let low = read16(bigEndian ? at + 2 : at) else {
                return nil
            }
            return high << 16 | low
        }
        guard read16(2) == 42, let ifd = read32(4), let count = read16(ifd) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = read16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard read16(entry + 2) == 3, let value = read16(entry + 8) else { return nil }
            return ImageOrientation(rawValue: value)
        }
        return nil
    }
}
