import Testing

@testable import WebImage

/// The entry checksum is standard XXH64 (vectors from the reference implementation).
@Suite struct DiskCacheChecksumTests {
    private func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { XXH64.hash($0, seed: seed) }
    }

    @Test func matchesReferenceVectors() {
        #expect(hash([]) == 0xEF46_DB37_51D8_E999)
        #expect(hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(hash(Array(0..<100), seed: 12345) == 0x028B_A1AE_2DE4_DE27)
        #expect(hash((0..<3).flatMap { _ in Array(0...255) } + Array("xyz".utf8)) == 0xE921_A1B4_5BD7_79F8)
    }
}
