import Foundation
import Testing

@testable import WebImage

/// Helpers shared by the WebP tests.
enum WebPTestSupport {
    /// The colours of `animated.webp`'s frames, in order (see generators/webp.py).
    static let animatedColours: [RGBA8] = [
        RGBA8(r: 255, g: 0, b: 0), RGBA8(r: 0, g: 255, b: 0), RGBA8(r: 0, g: 0, b: 255),
        RGBA8(r: 255, g: 255, b: 0), RGBA8(r: 0, g: 255, b: 255),
    ]

    /// A bitmap split into four solid quadrants (top left, top right, bottom left, bottom right).
    static func quadrants(width: Int, height: Int, _ colours: [RGBA8]) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: .clear)
        for y in 0..<height {
            for x in 0..<width {
                bitmap[x, y] = colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
            }
        }
        return bitmap
    }

    /// A WebP file: `RIFF <size> WEBP` and then `chunks` as they are.
    static func file(_ chunks: [UInt8]) -> Data {
        let body = Array("WEBP".utf8) + chunks
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    /// A chunk: its four-character code, the payload's size, and the payload (not padded).
    static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + le32(payload.count) + payload
    }

    /// `RIFF <size> WEBP VP8X` with the given flags and canvas, optionally followed by more chunks.
    static func vp8xHeader(width: Int, height: Int, flags: UInt8, trailing: [UInt8] = []) -> Data {
        file(chunk("VP8X", [flags, 0, 0, 0] + le24(width - 1) + le24(height - 1)) + trailing)
    }

    /// A `VP8L` chunk holding only a lossless header that claims `width`×`height`.
    static func vp8lChunk(width: Int, height: Int) -> [UInt8] {
        let bits = UInt32(width - 1) | (UInt32(height - 1) << 14) | (1 << 28)
        return chunk("VP8L", [0x2F] + le32(Int(bits)) + [0, 0, 0])
    }
}
