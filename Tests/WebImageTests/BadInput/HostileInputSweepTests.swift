import Foundation
import Testing

@testable import WebImage

/// Every committed fixture, damaged in the ways real downloads and hostile servers damage
/// images. Each case must end in a typed error or a sane image: never a crash, a hang or an
/// allocation past the limit.
@Suite("Hostile input across every fixture")
struct HostileInputSweepTests {
    /// Fixtures that are deliberately damaged already (their own tests cover them).
    static func isDeliberatelyBroken(_ path: String) -> Bool {
        ["trunc", "corrupt", "bad", "broken", "hostile"].contains { path.lowercased().contains($0) }
    }

    static func intactFixtures() throws -> [String] {
        try Fixtures.allImagePaths().filter { !isDeliberatelyBroken($0) }
    }

    /// Decodes `data`; the image, or nil for a `WebImageError` (the only error decode's typed
    /// throws allow).
    static func decodeOutcome(_ data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) -> Image? {
        try? ImageCodersManager.shared.decode(data, options: options)
    }

    @Test("Every intact fixture decodes, and its header agrees with its pixels")
    func intactFixturesDecode() throws {
        let paths = try Self.intactFixtures()
        #expect(paths.count >= 20, "expected the coders' fixtures to be committed")
        for path in paths {
            let data = try Fixtures.data(path)
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            let info = try ImageCodersManager.shared.imageInfo(for: data)
            #expect(image.format == ImageFormat(detecting: data), "\(path)")
            #expect(info.width == image.orientedSize.width && info.height == image.orientedSize.height, "\(path)")
            #expect(info.frameCount == image.frameCount, "\(path)")
        }
    }

    @Test("Truncation at every sixteenth of every fixture never crashes")
    func truncatedEverywhere() throws {
        for path in try Self.intactFixtures() {
            let data = try Fixtures.data(path)
            let full = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            for sixteenth in 0..<16 {
                let cut = data.prefix(data.count * sixteenth / 16)
                if let partial = Self.decodeOutcome(Data(cut)) {
                    // A decoder may return what it could (e.g. complete GIF frames), never a different size.
                    #expect(partial.width == full.width && partial.height == full.height, "\(path) cut at \(cut.count)")
                }
            }
        }
    }

    @Test("Random bit flips give a typed error or an image within the limits")
    func bitFlips() throws {
        var generator = SplitMix64(seed: 0x5EED)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 4_000_000
        options.maxAnimationByteCount = 64 << 20
        for path in try Self.intactFixtures() {
            let original = try Fixtures.data(path)
            for _ in 0..<24 {
                let damaged = generator.flippingBits(1 + Int(generator.next() % 8), in: [UInt8](original))
                if let image = Self.decodeOutcome(Data(damaged), options: options) {
                    #expect(image.width * image.height <= options.maxPixelCount, "\(path)")
                }
            }
        }
    }

    @Test("Random bytes behind each format's signature are rejected")
    func garbageAfterSignature() throws {
        var generator = SplitMix64(seed: 42)
        let signatures: [[UInt8]] = [
            [0xFF, 0xD8, 0xFF, 0xE0], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("GIF89a".utf8),
            Array("RIFF\u{40}\0\0\0WEBPVP8 ".utf8), Array("RIFF\u{40}\0\0\0WEBPVP8X".utf8),
            [0, 0, 0, 0x18] + Array("ftypheic\0\0\0\0mif1heic".utf8), [0, 0, 1, 0, 1, 0],
        ]
        for signature in signatures {
            for length in [0, 1, 7, 64, 1000] {
                let tail = generator.bytes(length)
                _ = Self.decodeOutcome(Data(signature + tail))
                // Fails with a WebImageError, if at all: imageInfo's typed throws allow no other.
                _ = try? ImageCodersManager.shared.imageInfo(for: Data(signature + tail))
            }
        }
    }
}
