import Foundation
import Testing

@testable import WebImage

/// Damaged copies of real fixtures: every outcome must be an image or a typed error, never a
/// crash, and incremental decoding must survive the same bytes.
@Suite("JPEG damaged data")
struct JPEGMutationTests {
    @Test(arguments: ["baseline.jpg", "progressive.jpg", "cmyk_adobe.jpg", "orientation_6.jpg", "restart_444.jpg"])
    func damagedBytesDecodeOrThrowTypedErrors(name: String) throws {
        let original = try JPEGFixture.data(name)
        var generator = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        var decoded = 0
        var failed = 0
        for _ in 0..<150 {
            var bytes = [UInt8](original)
            for _ in 0..<(1 + next(4)) {
                switch next(3) {
                case 0: bytes[next(bytes.count)] = UInt8(next(256))
                case 1: bytes[next(bytes.count)] ^= UInt8(1 << next(8))
                default: bytes.removeSubrange(next(bytes.count)..<bytes.count)
                }
                if bytes.isEmpty { bytes = [0xFF] }
            }
            let data = Data(bytes)
            do {
                let image = try JPEGCoder().decode(data, options: .init())
                #expect(image.bitmap.byteCount == image.width * image.height * 4)
                decoded += 1
            } catch {
                failed += 1
            }
            let incremental = JPEGCoder().makeIncrementalDecoder(options: .init())
            incremental.update(data.prefix(data.count / 2), isFinal: false)
            _ = try? incremental.currentImage()
        }
        // Both outcomes occur, so the sweep exercises decoding of damaged data, not only rejection.
        #expect(decoded > 0 && failed > 0, "decoded \(decoded), failed \(failed)")
    }
}
