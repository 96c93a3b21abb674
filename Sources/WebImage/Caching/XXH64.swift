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
