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
        let v = value.clamped(to: 0...1)
        let encoded = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
        return min(255, max(0, Int(clamping: encoded * 255 + 0.5, rounding: .down)))
    }
}
