import Foundation
import Testing

/// `data`, an AVIF or HEIC file, with its first `ispe` box's width and height replaced: a
/// container that lies about the size of its picture.
func claimingSize(width: UInt32, height: UInt32, in data: Data) throws -> Data {
    var bytes = [UInt8](data)
    let tag = Array("ispe".utf8)
    let at = try #require((0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == tag })
    // type, version and flags (4), width (4), height (4).
    for (offset, value) in [(8, width), (12, height)] {
        for index in 0..<4 { bytes[at + offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
    }
    return Data(bytes)
}
