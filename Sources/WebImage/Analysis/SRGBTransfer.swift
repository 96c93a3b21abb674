import Foundation

/// The sRGB transfer function, both ways, as the BlurHash format defines it.
enum SRGBTransfer {
    /// Linear light of each 8-bit sRGB value: a table, since every pixel needs three.
    static let linearOfByte: [Double] = (0..<256).map { linear(fromEncoded: Double($0) / 255) }

    /// Linear light of an sRGB value on 0...1.
    static func linear(fromEncoded value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    /// The 8-bit sRGB value of linear light `value`, clamped to 0...1 first: rounded half up,
    /// as BlurHash's reference encoder rounds, so that equal inputs give equal hashes.
    static func byte(fromLinear value: Double) -> Int {
        min(255, max(0, Int(clamping: encoded(fromLinear: value) * 255 + 0.5, rounding: .down)))
    }

    /// The sRGB value on 0...1 of linear light `value`, clamped to 0...1 first (NaN read as 0).
    static func encoded(fromLinear value: Double) -> Double {
        let v = value.clamped(to: 0...1)
        return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// The 16-bit sRGB value of linear light `value` (clamped, NaN read as 0), rounded half up.
    static func sixteenBit(fromLinear value: Double) -> UInt16 {
        UInt16(clamping: Int(clamping: encoded(fromLinear: value) * 65535 + 0.5, rounding: .down))
    }
}
