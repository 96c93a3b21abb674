import Foundation
import Testing

@testable import WebImage

/// Helpers shared by the WebP tests.
enum WebPTestSupport {
    /// Whether every channel of `actual` is within `tolerance` of `expected`.
    static func isClose(_ actual: RGBA8, _ expected: RGBA8, tolerance: Int) -> Bool {
        abs(Int(actual.r) - Int(expected.r)) <= tolerance && abs(Int(actual.g) - Int(expected.g)) <= tolerance
            && abs(Int(actual.b) - Int(expected.b)) <= tolerance && abs(Int(actual.a) - Int(expected.a)) <= tolerance
    }

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

    /// `RIFF <size> WEBP VP8X` with the given flags and canvas, optionally followed by more chunks.
    static func vp8xHeader(width: Int, height: Int, flags: UInt8, trailing: [UInt8] = []) -> Data {
        var chunk: [UInt8] = Array("VP8X".utf8) + [10, 0, 0, 0, flags, 0, 0, 0]
        chunk += le24(width - 1) + le24(height - 1)
        let body = Array("WEBP".utf8) + chunk + trailing
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    /// A `VP8L` chunk holding only a lossless header that claims `width`×`height`.
    static func vp8lChunk(width: Int, height: Int) -> [UInt8] {
        let bits = UInt32(width - 1) | (UInt32(height - 1) << 14) | (1 << 28)
        let payload: [UInt8] = [0x2F] + le32(Int(bits)) + [0, 0, 0]
        return Array("VP8L".utf8) + le32(payload.count) + payload
    }

    static func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le24(v) + [UInt8((v >> 24) & 0xFF)] }
}
