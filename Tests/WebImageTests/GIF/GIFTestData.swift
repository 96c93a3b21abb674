import Foundation

@testable import WebImage

/// Builds small GIFs byte by byte for tests that need shapes no fixture has.
struct GIFBuilder {
    struct Frame {
        var x = 0, y = 0, width: Int, height: Int
        var indices: [UInt8]
        var delay = 10
        var disposal = 1
        var transparent: Int?
        var minCodeSize = 2
        /// Only sets the descriptor's flag: `indices` must already be in interlaced row order.
        var interlaced = false
        /// Raw LZW bytes to use instead of encoding `indices`.
        var rawLZW: [UInt8]?
    }

    var width: Int
    var height: Int
    var colors: [RGBA8] = [GIFTestColor.red, GIFTestColor.blue, .white, .black]
    var loopCount: Int? = 0
    var frames: [Frame] = []
    var trailer = true

    /// Literal codes only, with a clear code before the code size would grow.
    static func literalLZW(_ indices: [UInt8], minCodeSize: Int) -> [UInt8] {
        let clear = 1 << minCodeSize
        let width = minCodeSize + 1
        var codes = [clear]
        var run = 0
        for value in indices {
            if run == clear - 2 {
                codes.append(clear)
                run = 0
            }
            codes.append(Int(value))
            run += 1
        }
        codes.append(clear + 1)
        return packCodes(codes, width: width)
    }

    /// Packs codes of one fixed width, least significant bit first.
    static func packCodes(_ codes: [Int], width: Int) -> [UInt8] {
        packCodes(codes, widths: Array(repeating: width, count: codes.count))
    }

    /// Packs each code in its own width (as a growing LZW table needs), least significant bit first.
    static func packCodes(_ codes: [Int], widths: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for (code, width) in zip(codes, widths) {
            accumulator |= code << bits
            bits += width
            while bits >= 8 {
                out.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { out.append(UInt8(accumulator & 0xFF)) }
        return out
    }

    static func subBlocks(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        while start < payload.count {
            let end = min(start + 255, payload.count)
            out.append(UInt8(end - start))
            out += payload[start..<end]
            start = end
        }
        return out + [0]
    }

    var data: Data {
        var out = Array("GIF89a".utf8)
        var tableSize = 2
        while tableSize < colors.count { tableSize *= 2 }
        let bits = tableSize.trailingZeroBitCount - 1
        out += le16(width) + le16(height) + [UInt8(0xF0 | bits), 0, 0]
        for i in 0..<tableSize {
            let c = i < colors.count ? colors[i] : .black
            out += [c.r, c.g, c.b]
        }
        if let loopCount {
            out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(loopCount) + [0]
        }
        for frame in frames {
            let flags = UInt8(frame.disposal << 2 | (frame.transparent == nil ? 0 : 1))
            out += [0x21, 0xF9, 4, flags] + le16(frame.delay) + [UInt8(frame.transparent ?? 0), 0]
            out +=
                [0x2C] + le16(frame.x) + le16(frame.y) + le16(frame.width)
                + le16(frame.height) + [frame.interlaced ? 0x40 : 0]
            out.append(UInt8(frame.minCodeSize))
            out += Self.subBlocks(frame.rawLZW ?? Self.literalLZW(frame.indices, minCodeSize: frame.minCodeSize))
        }
        if trailer { out.append(0x3B) }
        return Data(out)
    }
}

extension ImageBitmap {
    /// Every pixel, for comparing frames.
    var gifTestPixels: [RGBA8] {
        stride(from: 0, to: pixels.count, by: 4).map {
            RGBA8(r: pixels[$0], g: pixels[$0 + 1], b: pixels[$0 + 2], a: pixels[$0 + 3])
        }
    }
}

enum GIFTestColor {
    static let red = RGBA8(r: 255, g: 0, b: 0)
    static let green = RGBA8(r: 0, g: 255, b: 0)
    static let blue = RGBA8(r: 0, g: 0, b: 255)
    static let yellow = RGBA8(r: 255, g: 255, b: 0)
    static let white = RGBA8.white
    static let clear = RGBA8.clear
}
