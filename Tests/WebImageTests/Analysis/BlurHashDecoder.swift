import Foundation

@testable import WebImage

/// A BlurHash decoder written from the format's description (blurha.sh), separate from the
/// library's encoder, so that the tests check what the text means rather than how it was made.
enum BlurHashDecoder {
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    /// The number written by `text` in base 83, or nil for a character outside the alphabet.
    static func number(_ text: Substring) -> Int? {
        var value = 0
        for character in text {
            guard let digit = digits.firstIndex(of: character) else { return nil }
            value = value * 83 + digit
        }
        return value
    }

    /// The components a hash says it has, from its first character.
    static func components(_ hash: String) -> (x: Int, y: Int)? {
        guard let flag = number(hash.prefix(1)) else { return nil }
        return (flag % 9 + 1, flag / 9 + 1)
    }

    /// The constant colour (the DC factor): the picture's average, in linear light.
    static func averageColor(_ hash: String) -> RGBA8? {
        guard hash.count >= 6, let dc = number(hash.dropFirst(2).prefix(4)) else { return nil }
        return RGBA8(r: UInt8(dc >> 16 & 255), g: UInt8(dc >> 8 & 255), b: UInt8(dc & 255))
    }

    /// The picture the hash describes, drawn at `width × height`; nil for a malformed hash.
    static func decode(_ hash: String, width: Int, height: Int) -> ImageBitmap? {
        guard let (nx, ny) = components(hash), hash.count == 4 + 2 * nx * ny else { return nil }
        let characters = Array(hash)
        let field = { (start: Int, length: Int) in number(Substring(String(characters[start..<start + length]))) }
        guard let quantisedMaximum = field(1, 1), let dc = field(2, 4) else { return nil }
        let maximum = Double(quantisedMaximum + 1) / 166
        var colors = [[toLinear(dc >> 16), toLinear((dc >> 8) & 255), toLinear(dc & 255)]]
        for k in 1..<(nx * ny) {
            guard let ac = field(6 + 2 * (k - 1), 2) else { return nil }
            let channel = { (quantised: Int) -> Double in
                let share = Double(quantised - 9) / 9
                return (share < 0 ? -1 : 1) * share * share * maximum
            }
            colors.append([channel(ac / 361), channel((ac / 19) % 19), channel(ac % 19)])
        }
        var bitmap = ImageBitmap(width: width, height: height, fill: .clear)
        for y in 0..<height {
            for x in 0..<width {
                var rgb = [0.0, 0.0, 0.0]
                for j in 0..<ny {
                    for i in 0..<nx {
                        let basis =
                            cos(Double.pi * Double(x * i) / Double(width))
                            * cos(Double.pi * Double(y * j) / Double(height))
                        for c in 0..<3 { rgb[c] += colors[j * nx + i][c] * basis }
                    }
                }
                bitmap[x, y] = RGBA8(r: toByte(rgb[0]), g: toByte(rgb[1]), b: toByte(rgb[2]))
            }
        }
        return bitmap
    }

    static func toLinear(_ byte: Int) -> Double {
        let v = Double(byte) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    static func toByte(_ linear: Double) -> UInt8 {
        let v = min(1, max(0, linear))
        let encoded = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
        return UInt8(clamping: Int(clamping: encoded * 255, rounding: .toNearestOrAwayFromZero))
    }
}
