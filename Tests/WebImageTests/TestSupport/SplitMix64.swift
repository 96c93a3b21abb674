/// A small deterministic random generator (SplitMix64), so damaged inputs are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { self.state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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
