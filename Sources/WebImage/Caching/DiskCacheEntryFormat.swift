import Foundation

/// The bytes of one ``DiskCache`` entry file.
///
/// ```
/// offset size  field (integers little-endian)
///  0      4    magic "SWIC"
///  4      1    format version (1)
///  5      3    reserved, zero
///  8      4    metadata length M
/// 12      4    reserved, zero
/// 16      8    data length D
/// 24      8    checksum: XXH64 of the data, seeded with XXH64 of the metadata
/// 32      M    metadata (compact binary, below)
/// 32+M    D    data
/// ```
/// The file is exactly 32 + M + D bytes. Metadata: a presence byte (bit 0 content type, 1 ETag,
/// 2 Last-Modified, 3 expiration date, 4 extended data, 5 Cache-Control; other bits must be zero), the store date
/// as a Float64 of seconds since 1970, then each present field in that order — strings and
/// extended data as a UInt32 length plus bytes, the expiration date as a Float64.
///
/// Anything else — another magic or version, a length that does not add up, a checksum mismatch,
/// metadata that does not parse to its last byte, a date that is NaN or infinite — is corrupt and
/// reads as a miss.
@_spi(Internals) public enum DiskCacheEntryFormat {
    static let magic: [UInt8] = Array("SWIC".utf8)
    static let version: UInt8 = 1
    static let headerSize = 32
    /// The largest entry file written or read (2 GiB): a bigger file at an entry's path is not
    /// ours, and reading it whole could exhaust memory.
    static let maxFileSize = 1 << 31

    @_spi(Internals) public static func encode(data: Data, metadata: DiskCacheMetadata) throws(WebImageError) -> Data {
        let head = try encodeHead(data: data, metadata: metadata)
        var out = Data(capacity: head.count + data.count)
        out.append(head)
        out.append(data)
        return out
    }

    /// Everything of the entry file for `data` that comes before `data`: header and metadata.
    /// The file is this followed by `data`, so a writer can send both without first copying
    /// the body (often 100 KB or more) into one buffer.
    static func encodeHead(data: Data, metadata: DiskCacheMetadata) throws(WebImageError) -> Data {
        let limit = Int(UInt32.max)
        let blobs = [
            metadata.contentType?.utf8.count, metadata.etag?.utf8.count, metadata.lastModified?.utf8.count,
            metadata.cacheControl?.utf8.count,
        ]
        guard blobs.allSatisfy({ ($0 ?? 0) <= limit }), (metadata.extendedData?.count ?? 0) <= limit / 2 else {
            throw .diskCacheFailure("metadata too large")
        }
        guard metadata.storeDate.timeIntervalSince1970.isFinite,
            metadata.expirationDate?.timeIntervalSince1970.isFinite ?? true
        else {
            throw .diskCacheFailure("metadata date is not finite")
        }
        let meta = encodeMetadata(metadata)
        guard headerSize + meta.count + data.count <= maxFileSize else { throw .diskCacheFailure("entry too large") }
        let metaHash = meta.withUnsafeBytes { XXH64.hash($0) }
        let checksum = data.withUnsafeBytes { XXH64.hash($0, seed: metaHash) }
        var out = Data(capacity: headerSize + meta.count)
        out.append(contentsOf: magic)
        out.append(contentsOf: [version, 0, 0, 0])
        appendInteger(UInt32(meta.count), to: &out)
        appendInteger(UInt32(0), to: &out)
        appendInteger(UInt64(data.count), to: &out)
        appendInteger(checksum, to: &out)
        out.append(meta)
        return out
    }

    /// The entry in `file`, or nil if `file` is not an intact entry.
    @_spi(Internals) public static func decode(_ file: Data) -> DiskCacheEntry? {
        file.withUnsafeBytes { raw -> DiskCacheEntry? in
            guard raw.count >= headerSize, raw.prefix(4).elementsEqual(magic), raw[4] == version,
                raw[5] == 0, raw[6] == 0, raw[7] == 0,
                raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self) == 0
            else { return nil }
            let metaLength = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
            let dataLength64 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            let storedChecksum = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            guard dataLength64 <= UInt64(raw.count), headerSize + metaLength + Int(dataLength64) == raw.count else {
                return nil
            }
            let meta = UnsafeRawBufferPointer(rebasing: raw[headerSize..<(headerSize + metaLength)])
            let body = UnsafeRawBufferPointer(rebasing: raw[(headerSize + metaLength)...])
            guard XXH64.hash(body, seed: XXH64.hash(meta)) == storedChecksum, let metadata = decodeMetadata(meta) else {
                return nil
            }
            let data = Data(body)
            return DiskCacheEntry(data: data, metadata: metadata)
        }
    }

    // MARK: Metadata

    private enum Field {
        static let contentType: UInt8 = 1 << 0
        static let etag: UInt8 = 1 << 1
        static let lastModified: UInt8 = 1 << 2
        static let expirationDate: UInt8 = 1 << 3
        static let extendedData: UInt8 = 1 << 4
        static let cacheControl: UInt8 = 1 << 5
        static let all: UInt8 = 0x3f
    }

    static func encodeMetadata(_ metadata: DiskCacheMetadata) -> Data {
        var flags: UInt8 = 0
        if metadata.contentType != nil { flags |= Field.contentType }
        if metadata.etag != nil { flags |= Field.etag }
        if metadata.lastModified != nil { flags |= Field.lastModified }
        if metadata.expirationDate != nil { flags |= Field.expirationDate }
        if metadata.extendedData != nil { flags |= Field.extendedData }
        if metadata.cacheControl != nil { flags |= Field.cacheControl }
        var out = Data([flags])
        appendInteger(metadata.storeDate.timeIntervalSince1970.bitPattern, to: &out)
        for string in [metadata.contentType, metadata.etag, metadata.lastModified] {
            guard let string else { continue }
            appendBlob(Data(string.utf8), to: &out)
        }
        if let date = metadata.expirationDate { appendInteger(date.timeIntervalSince1970.bitPattern, to: &out) }
        if let extended = metadata.extendedData { appendBlob(extended, to: &out) }
        if let cacheControl = metadata.cacheControl { appendBlob(Data(cacheControl.utf8), to: &out) }
        return out
    }

    @_spi(Internals) public static func decodeMetadata(_ raw: UnsafeRawBufferPointer) -> DiskCacheMetadata? {
        var reader = Reader(raw: raw)
        guard let flags = reader.byte(), flags & ~Field.all == 0, let storeDate = reader.date() else { return nil }
        var metadata = DiskCacheMetadata(storeDate: storeDate)
        if flags & Field.contentType != 0 {
            guard let value = reader.string() else { return nil }
            metadata.contentType = value
        }
        if flags & Field.etag != 0 {
            guard let value = reader.string() else { return nil }
            metadata.etag = value
        }
        if flags & Field.lastModified != 0 {
            guard let value = reader.string() else { return nil }
            metadata.lastModified = value
        }
        if flags & Field.expirationDate != 0 {
            guard let value = reader.date() else { return nil }
            metadata.expirationDate = value
        }
        if flags & Field.extendedData != 0 {
            guard let value = reader.blob() else { return nil }
            metadata.extendedData = Data(value)
        }
        if flags & Field.cacheControl != 0 {
            guard let value = reader.string() else { return nil }
            metadata.cacheControl = value
        }
        return reader.isAtEnd ? metadata : nil
    }

    private struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset = 0
        var isAtEnd: Bool { offset == raw.count }

        mutating func byte() -> UInt8? {
            guard offset < raw.count else { return nil }
            defer { offset += 1 }
            return raw[offset]
        }
        mutating func double() -> Double? {
            guard raw.count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
        /// Seconds since 1970; nil unless finite (`Date` never equals a NaN one, not even itself).
        mutating func date() -> Date? {
            guard let seconds = double(), seconds.isFinite else { return nil }
            return Date(timeIntervalSince1970: seconds)
        }
        mutating func blob() -> UnsafeRawBufferPointer? {
            guard raw.count - offset >= 4 else { return nil }
            let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            guard raw.count - offset - 4 >= length else { return nil }
            defer { offset += 4 + length }
            return UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 4 + length)])
        }
        mutating func string() -> String? {
            guard let bytes = blob() else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
    }

    private static func appendInteger<T: FixedWidthInteger>(_ value: T, to out: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func appendBlob(_ blob: Data, to out: inout Data) {
        appendInteger(UInt32(blob.count), to: &out)
        out.append(blob)
    }
}

// MARK: The checksum

/// XXH64 (xxHash, 64-bit): the disk cache's integrity check. No table look-ups and four
/// independent lanes make it cheaper than a table CRC-32, so checking an entry costs little next
/// to decoding it; its 64 bits catch torn and damaged files as well as a CRC would.
enum XXH64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) private static func rotl(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    @inline(__always) private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotl(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always) private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var offset = 0
        @inline(__always) func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        var hash: UInt64
        if count >= 32 {
            var lane1 = seed &+ prime1 &+ prime2
            var lane2 = seed &+ prime2
            var lane3 = seed
            var lane4 = seed &- prime1
            while count - offset >= 32 {
                lane1 = round(lane1, word(offset))
                lane2 = round(lane2, word(offset + 8))
                lane3 = round(lane3, word(offset + 16))
                lane4 = round(lane4, word(offset + 24))
                offset += 32
            }
            hash = rotl(lane1, 1) &+ rotl(lane2, 7) &+ rotl(lane3, 12) &+ rotl(lane4, 18)
            hash = merge(merge(merge(merge(hash, lane1), lane2), lane3), lane4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while count - offset >= 8 {
            hash = rotl(hash ^ round(0, word(offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        if count - offset >= 4 {
            let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = rotl(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash = rotl(hash ^ (UInt64(bytes[offset]) &* prime5), 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }
}
