import WebImageTestOrigin

/// The origin's generator, here with the helpers the tests damage and fill inputs with.
typealias SplitMix64 = WebImageTestOrigin.SplitMix64

extension SplitMix64 {
    /// The next `count` bytes, one value each (its low byte: what `UInt8.random(in: 0...255,
    /// using:)` gives too).
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// `bytes` with `count` bits flipped, each in a random byte (drawn first), at a random bit.
    mutating func flippingBits(_ count: Int, in bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<count {
            let index = Int(next() % UInt64(bytes.count))
            bytes[index] ^= UInt8(1 << (next() % 8))
        }
        return bytes
    }

    /// `bytes` with 1 to `most` of its bytes from `start` on (a random place, then a random
    /// value, each) replaced: damage that leaves a format's signature alone.
    mutating func overwritingBytes(in bytes: [UInt8], atMost most: Int, from start: Int) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...most, using: &self) {
            bytes[Int.random(in: start..<bytes.count, using: &self)] = UInt8.random(in: 0...255, using: &self)
        }
        return bytes
    }

    /// The first `count` bytes of the generator seeded with `seed`.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return generator.bytes(count)
    }
}
