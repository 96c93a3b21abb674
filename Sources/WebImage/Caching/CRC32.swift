/// CRC-32 (IEEE 802.3, the zlib/PNG polynomial), slice-by-8: eight bytes per round of table
/// look-ups, fast enough that checking a disk-cache entry costs little next to decoding it.
enum CRC32 {
    /// Eight 256-entry tables, flat: table `s` starts at `s * 256`.
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            table[index] = crc
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = table[(slice - 1) * 256 + index]
                table[slice * 256 + index] = (previous >> 8) ^ table[Int(previous & 0xff)]
            }
        }
        return table
    }()

    /// Continues `crc` (0 to start) over `bytes`.
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var value = ~crc
        let count = bytes.count
        var offset = 0
        table.withUnsafeBufferPointer { t in
            while count - offset >= 8 {
                let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ value
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                let a = t[1792 + Int(low & 0xff)] ^ t[1536 + Int((low >> 8) & 0xff)]
                let b = t[1280 + Int((low >> 16) & 0xff)] ^ t[1024 + Int(low >> 24)]
                let c = t[768 + Int(high & 0xff)] ^ t[512 + Int((high >> 8) & 0xff)]
                let d = t[256 + Int((high >> 16) & 0xff)] ^ t[Int(high >> 24)]
                value = a ^ b ^ c ^ d
                offset += 8
            }
            while offset < count {
                value = (value >> 8) ^ t[Int((value ^ UInt32(bytes[offset])) & 0xff)]
                offset += 1
            }
        }
        return ~value
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 { update(0, bytes) }
}
