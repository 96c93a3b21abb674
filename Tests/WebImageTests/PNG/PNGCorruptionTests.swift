import Foundation
import Testing

@testable import WebImage

@Suite("PNG corrupted bytes")
struct PNGCorruptionTests {
    @Test(
        "changing any single byte gives an error or an image of the stated size, never a crash",
        arguments: ["rgba8", "palette4_trns", "gray2_adam7", "rgb16", "exif_right"])
    func everyByteFlipped(name: String) throws {
        let original = try PNGFixture.data(name)
        let size = try PNGCoder().imageInfo(for: original)
        for index in original.indices {
            var data = original
            data[index] ^= 0xA5
            do {
                let image = try PNGCoder().decode(data, options: ImageDecodeOptions())
                // Only ancillary chunks (whose bad CRC makes libpng drop them) can be hit and survive.
                #expect(image.orientedSize.pixelCount == size.width * size.height, "byte \(index)")
            } catch {
                guard error.code == .badImageData else {
                    Issue.record("byte \(index): unexpected \(error)")
                    continue
                }
            }
        }
    }
}
