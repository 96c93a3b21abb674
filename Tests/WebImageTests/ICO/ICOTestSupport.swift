import Foundation

@testable import WebImage

/// The ICO fixtures (`Tests/Fixtures/ico`, made by `generators/ico.py`) and ICO files put
/// together here for cases no fixture has.
enum ICOTestSupport: CoderFixtures {
    static let folder = "ico"
    static let fileExtension = "ico"
    static let format = ImageFormat.ico
    static var coder: any ImageCoding { ImageCodersManager.shared }

    /// One directory entry: the size bytes, depth, and the payload's stated place and size.
    struct Entry {
        var width: UInt8
        var height: UInt8
        var bitsPerPixel = 32
        var size: Int
        var offset: Int
    }

    /// An ICO file of `entries` (offsets and sizes as given, true or not) followed by `payloads`.
    static func file(_ entries: [Entry], count: Int? = nil, payloads: [UInt8] = []) -> Data {
        var out: [UInt8] = [0, 0, 1, 0] + le16(count ?? entries.count)
        for entry in entries {
            out += [entry.width, entry.height, 0, 0] + le16(1) + le16(entry.bitsPerPixel)
            out += le32(entry.size) + le32(entry.offset)
        }
        return Data(out + payloads)
    }

    /// An ICO file holding `payloads` in order, each entry pointing at its own.
    static func file(payloads: [[UInt8]]) -> Data {
        var offset = 6 + 16 * payloads.count
        let entries = payloads.map { payload in
            defer { offset += payload.count }
            return Entry(width: 0, height: 0, size: payload.count, offset: offset)
        }
        return file(entries, payloads: payloads.flatMap { $0 })
    }

    /// A bitmap entry of `width`×`height` 32-bit pixels (BGRA, bottom-up rows) and its AND mask.
    /// `pixel(x, y)` gives each pixel (y from the top), `hidden(x, y)` the mask's bits.
    static func bitmap32(
        width: Int, height: Int, pixel: (Int, Int) -> RGBA8, hidden: (Int, Int) -> Bool = { _, _ in false }
    ) -> [UInt8] {
        var out = le32(40) + le32(width) + le32(height * 2) + le16(1) + le16(32) + le32(0) + le32(0)
        out += [UInt8](repeating: 0, count: 16)
        for y in (0..<height).reversed() {
            for x in 0..<width {
                let colour = pixel(x, y)
                out += [colour.b, colour.g, colour.r, colour.a]
            }
        }
        let maskRow = (width + 31) / 32 * 4
        for y in (0..<height).reversed() {
            var row = [UInt8](repeating: 0, count: maskRow)
            for x in 0..<width where hidden(x, y) { row[x / 8] |= 0x80 >> (x % 8) }
            out += row
        }
        return out
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
