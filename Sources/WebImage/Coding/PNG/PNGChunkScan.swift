/// A bounds-checked walk over a PNG's chunk headers, without CRC checks or decompression.
///
/// libpng does the real parsing; this finds what libpng's header read does not give cheaply:
/// the IHDR size even when libpng refuses it, the number of IDAT bytes present, and the
/// metadata chunks (`eXIf` wherever it sits, `iCCP`, XMP's `iTXt`), which libpng is told to skip.
@_spi(Internals) public struct PNGChunkScan {
    /// The IHDR width and height, if the first chunk is a complete IHDR with a correct CRC and
    /// sides within PNG's 2³¹ − 1.
    var storedSize: PixelSize?
    /// Bytes of IDAT data actually present (a chunk cut short counts what is there).
    var idatByteCount = 0
    /// The first `eXIf` chunk's data.
    var exif: [UInt8]?
    /// Where the first complete `iCCP` chunk's data lies (profile name, method, deflated profile).
    var iccProfileChunk: Range<Int>?
    /// Where the first complete `iTXt` chunk with XMP's keyword lies.
    var xmpChunk: Range<Int>?

    /// PNG's eight-byte signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    init(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual(Self.signature) else { return }
        var offset = 8
        var isFirst = true
        // Each chunk: 4-byte length, 4-byte type, data, 4-byte CRC.
        while bytes.count - offset >= 8 {
            let length = Int(Self.readUInt32(bytes, at: offset))
            let type = Self.readUInt32(bytes, at: offset + 4)
            let dataStart = offset + 8
            let available = min(length, bytes.count - dataStart)
            if isFirst, type == Self.ihdr, length == 13, bytes.count - dataStart >= 17,
                Self.crc32(UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(dataStart + 13)]))
                    == Self.readUInt32(bytes, at: dataStart + 13)
            {
                let width = Self.readUInt32(bytes, at: dataStart)
                let height = Self.readUInt32(bytes, at: dataStart + 4)
                if width <= Int32.max, height <= Int32.max {
                    storedSize = PixelSize(width: Int(width), height: Int(height))
                }
            }
            isFirst = false
            if type == Self.idat {
                idatByteCount += available
            } else if type == Self.exifType, exif == nil, available == length {
                exif = Array(bytes[dataStart..<(dataStart + length)])
            } else if type == Self.iccp, iccProfileChunk == nil, available == length {
                iccProfileChunk = dataStart..<(dataStart + length)
            } else if type == Self.itxt, xmpChunk == nil, available == length,
                UnsafeRawBufferPointer(rebasing: bytes[dataStart..<(dataStart + length)])
                    .starts(with: PNGMetadata.xmpKeyword)
            {
                xmpChunk = dataStart..<(dataStart + length)
            } else if type == Self.iend {
                break
            }
            // length < 2^32 and offset ≤ count, so this cannot overflow Int on 64-bit platforms.
            offset = dataStart + length + 4
            if offset > bytes.count { break }
        }
    }

    private static let ihdr: UInt32 = 0x4948_4452
    private static let idat: UInt32 = 0x4944_4154
    private static let iend: UInt32 = 0x4945_4E44
    private static let exifType: UInt32 = 0x6558_4966
    private static let iccp: UInt32 = 0x6943_4350
    private static let itxt: UInt32 = 0x6954_5874

    /// CRC-32 (ISO 3309, as PNG uses), bitwise: the decoder only runs it over the 17 bytes of
    /// IHDR; the fuzz bodies and tests use it to write valid chunks.
    @_spi(Internals) public static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

extension PNGChunkScan {
    /// Deflate cannot expand data by more than 1032:1 (a 258-byte match in 2 bits).
    static let maximumDeflateRatio = 1032

    /// Whether the IDAT bytes present are too few to inflate to `header`'s pixels, however well
    /// compressed: such a file is truncated or hostile and fails before any pixel is allocated.
    func idatIsTooShort(for header: PNGHeader) -> Bool {
        let bitsPerPixel = header.bitDepth * header.channelCount
        let (pixels, overflow1) = header.width.multipliedReportingOverflow(by: header.height)
        let (bits, overflow2) = pixels.multipliedReportingOverflow(by: bitsPerPixel)
        if overflow1 || overflow2 { return true }
        let (ceiling, overflow3) = idatByteCount.multipliedReportingOverflow(by: Self.maximumDeflateRatio)
        return !overflow3 && ceiling < bits / 8
    }
}
