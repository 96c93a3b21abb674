import Foundation
@_spi(Internals) import WebImage

/// Rewrites every chunk CRC of a PNG so that mutated chunks still reach the decoder: libpng
/// rejects a chunk with a bad CRC before parsing it, and a fuzzer almost never forges one.
enum PNGChecksums {
    /// `data` with each complete chunk's CRC recomputed; bytes past the last complete chunk are kept.
    static func repaired(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        var offset = 8  // the signature
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 8 + length
            guard end + 4 <= bytes.count else { break }
            let crc = bytes[(offset + 4)..<end].withUnsafeBytes { PNGChunkScan.crc32($0) }
            for index in 0..<4 { bytes[end + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
            offset = end + 4
        }
        return Data(bytes)
    }
}
