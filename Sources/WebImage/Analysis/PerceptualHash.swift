/// A 64-bit perceptual hash (pHash) of an image: similar images have hashes that differ in few
/// bits. Made by ``Image/perceptualHash()``.
///
/// Compare two hashes with ``hammingDistance(to:)``: 0 for the same picture, a few bits for the
/// picture resized, recompressed or slightly retouched, around 32 for unrelated pictures.
public struct PerceptualHash: Hashable, Sendable, CustomStringConvertible {
    /// The 64 bits; the most significant is the first of the 8×8 low frequencies, row by row.
    public var value: UInt64

    public init(value: UInt64) {
        self.value = value
    }

    /// A hash from its ``hexString`` form (16 hexadecimal digits, either case); nil for
    /// anything else.
    public init?(hexString: some StringProtocol) {
        let digits = Array(hexString.utf8)
        guard digits.count == 16 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard let nibble = digit.hexDigitValue else { return nil }
            value = value << 4 | UInt64(nibble)
        }
        self.value = value
    }

    /// 16 lowercase hexadecimal digits, the form of imgproxy's `perceptual_hash` and of
    /// Python's `imagehash`.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        let text = (0..<16).map { digits[Int((value >> UInt64(60 - 4 * $0)) & 15)] }
        return String(decoding: text, as: UTF8.self)
    }

    public var description: String { hexString }

    /// How many of the 64 bits differ between the two hashes (0...64).
    public func hammingDistance(to other: PerceptualHash) -> Int {
        (value ^ other.value).nonzeroBitCount
    }
}
