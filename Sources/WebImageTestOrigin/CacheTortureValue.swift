import Foundation
import WebImage

/// The values `webimage-cache-torture` stores and the tests check: every value is a function of
/// its key and a generation number written at its front, so any reader can tell an intact value
/// from a torn one.
public enum CacheTortureValue {
    /// `key|generation|` followed by pseudo-random bytes; the length also depends on both.
    public static func value(key: String, generation: UInt64, maxLength: Int) -> Data {
        var rng = SplitMix64(seed: fnv1a(key) ^ generation &* 0x2545_F491_4F6C_DD1D)
        var out = Data("\(key)|\(generation)|".utf8)
        let tail = Int(rng.next() % UInt64(maxLength))
        let words = (0..<(tail + 7) / 8).map { _ in rng.next() }
        words.withUnsafeBytes { out.append(contentsOf: $0.prefix(tail)) }
        return out
    }

    /// Whether `data` is exactly what `key` holds for the generation recorded in it.
    public static func isIntact(_ data: Data, key: String, maxLength: Int) -> Bool {
        let parts = data.prefix(200).split(
            separator: UInt8(ascii: "|"), maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, String(decoding: parts[0], as: UTF8.self) == key,
            let generation = UInt64(String(decoding: parts[1], as: UTF8.self))
        else { return false }
        return data == value(key: key, generation: generation, maxLength: maxLength)
    }

    private static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
