/// An ICO file's directory (ICONDIR and its ICONDIRENTRY records), checked against the file
/// before any payload is decoded: at least one entry, every entry after the directory, inside
/// the file and not empty. Each entry's size and depth come from its payload's own header (a
/// PNG's IHDR, a bitmap's BITMAPINFOHEADER with its doubled height halved); the directory's
/// width and height bytes (0 meaning 256) are never trusted, since writers get them wrong.
struct ICODirectory {
    /// What an entry holds.
    enum Payload: Equatable {
        /// A whole PNG file.
        case png
        /// A BMP's DIB (no file header): the colour pixels, then the 1-bit AND mask.
        case bitmap
    }

    struct Entry: Equatable {
        /// The payload's bytes, from the start of the file.
        let range: Range<Int>
        let payload: Payload
        let width: Int
        let height: Int
        /// Bits per pixel as stored (a PNG's bit depth times its channels).
        let bitsPerPixel: Int

        var size: PixelSize { PixelSize(width: width, height: height) }

        /// Larger first by pixels, then by depth.
        func isBetter(than other: Entry) -> Bool {
            let (pixels, otherPixels) = (size.pixelCount, other.size.pixelCount)
            return pixels != otherPixels ? pixels > otherPixels : bitsPerPixel > other.bitsPerPixel
        }
    }

    static let headerSize = 6
    static let entrySize = 16

    /// In directory order; never empty.
    let entries: [Entry]

    init(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= Self.headerSize, u16(0) == 0, u16(2) == 1 else {
            throw .badImageData("not an ICO file (no icon directory header)")
        }
        let count = u16(4)
        guard count > 0 else { throw .badImageData("the ICO directory lists no images") }
        let directoryEnd = Self.headerSize + count * Self.entrySize
        guard directoryEnd <= bytes.count else {
            throw .badImageData(
                "the ICO directory lists \(count) images, more than the \(bytes.count)-byte file can hold")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let at = Self.headerSize + index * Self.entrySize
            let size = u32(at + 8)
            let offset = u32(at + 12)
            guard size > 0 else { throw .badImageData("ICO image \(index) has a size of 0 bytes") }
            guard offset >= directoryEnd else {
                throw .badImageData("ICO image \(index) starts at byte \(offset), inside the directory")
            }
            // Both are below 2^32, so the sum cannot overflow.
            guard offset + size <= bytes.count else {
                throw .badImageData(
                    "ICO image \(index) (bytes \(offset)..<\(offset + size)) runs past the end of the \(bytes.count)-byte file"
                )
            }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)])
            entries.append(try Self.entry(index, payload, range: offset..<(offset + size)))
        }
        self.entries = entries
    }

    /// The largest entry (the deepest of equal sizes, the first of equal ones).
    var largest: Entry {
        entries.dropFirst().reduce(entries[0]) { best, entry in entry.isBetter(than: best) ? entry : best }
    }

    /// The smallest entry that fills `box` without being scaled up (the deepest of equal sizes),
    /// else the largest.
    func nearest(to box: PixelSize, preserveAspectRatio: Bool) -> Entry {
        let fitting = entries.filter { entry in
            let fitted = DecodeGeometry.scaledSize(
                entry.size, fitting: box, preserveAspectRatio: preserveAspectRatio, shouldScaleUp: true)
            return fitted.width <= entry.width && fitted.height <= entry.height
        }
        guard let first = fitting.first else { return largest }
        return fitting.dropFirst().reduce(first) { best, entry in
            let (pixels, bestPixels) = (entry.size.pixelCount, best.size.pixelCount)
            if pixels != bestPixels { return pixels < bestPixels ? entry : best }
            return entry.bitsPerPixel > best.bitsPerPixel ? entry : best
        }
    }

    /// What the payload's own header says.
    private static func entry(_ index: Int, _ payload: UnsafeRawBufferPointer, range: Range<Int>)
        throws(WebImageError) -> Entry
    {
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(payload[at + $1]) << (8 * $1) } }
        if payload.starts(with: PNGChunkScan.signature) {
            guard let header = pngHeader(payload) else {
                throw .badImageData("ICO image \(index) is a PNG without its IHDR header")
            }
            guard header.width > 0, header.height > 0 else {
                throw .badImageData("ICO image \(index) claims a size of \(header.width)x\(header.height) pixels")
            }
            return Entry(
                range: range, payload: .png, width: header.width, height: header.height,
                bitsPerPixel: header.bitsPerPixel)
        }
        // BITMAPINFOHEADER or a later one (the sizes the BMP decoder reads), whole.
        guard payload.count >= 16, [40, 52, 56, 64, 108, 124].contains(u32(0)), payload.count >= u32(0) else {
            throw .badImageData("ICO image \(index) is neither a PNG nor a bitmap with a BITMAPINFOHEADER")
        }
        let width = Int(Int32(bitPattern: u32(4)))
        // The stored height covers the colour pixels and the AND mask below them.
        let height = abs(Int(Int32(bitPattern: u32(8)))) / 2
        guard width > 0, height > 0 else {
            throw .badImageData("ICO image \(index) claims a size of \(width)x\(height) pixels")
        }
        let bits = Int(payload[14]) | Int(payload[15]) << 8
        guard [1, 4, 8, 16, 24, 32].contains(bits) else {
            throw .badImageData("ICO image \(index) has bitmap pixels of \(bits) bits")
        }
        return Entry(range: range, payload: .bitmap, width: width, height: height, bitsPerPixel: bits)
    }

    /// A PNG's size and bits per pixel (its bit depth times its channels) from its IHDR chunk,
    /// which leads every PNG; nil if the bytes are too short or another chunk comes first.
    static func pngHeader(_ png: UnsafeRawBufferPointer) -> (width: Int, height: Int, bitsPerPixel: Int)? {
        guard png.count >= 26, png[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func u32BigEndian(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(png[at + $1]) } }
        let channels = [2: 3, 4: 2, 6: 4][Int(png[25])] ?? 1
        return (u32BigEndian(16), u32BigEndian(20), Int(png[24]) * channels)
    }
}
