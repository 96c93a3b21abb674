import Foundation
import Testing

@testable import WebImage

/// Seeded byte mutations of every WebP fixture: each decode path must either succeed or throw a
/// ``WebImageError`` (never crash, hang or allocate past the limit).
@Suite("WebP mutated input")
struct WebPMutationTests {
    let coder = WebPCoder()

    @Test(arguments: WebPBadInputTests.fixtures)
    func mutatedFilesDecodeOrThrowWebImageError(name: String) throws {
        let original = [UInt8](try Fixtures.data("webp/\(name)"))
        var generator = SplitMix64(seed: UInt64(original.count))
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 20
        var lazy = options
        lazy.lazyAnimatedFrames = true
        var failures = 0
        for _ in 0..<150 {
            // Keep "RIFF....WEBP" so the coder's own parsing is exercised past the magic.
            let bytes = generator.overwritingBytes(in: original, atMost: 4, from: 12)
            let data = Data(bytes)
            failures += outcome { _ = try coder.imageInfo(for: data) }
            failures += outcome { _ = try coder.decode(data, options: options) }
            failures += outcome {
                let image = try coder.decode(data, options: lazy)
                for index in (0..<image.frameCount).reversed() { _ = try image.animation?.frame(at: index) }
            }
            failures += outcome {
                let decoder = coder.makeIncrementalDecoder(options: options)
                decoder.update(data.prefix(data.count / 2), isFinal: false)
                _ = try decoder.currentImage()
                decoder.update(data, isFinal: true)
                _ = try decoder.currentImage()
            }
        }
        // The mutations must have produced at least some errors, or the test proves nothing.
        #expect(failures > 0)
    }

    /// 1 if `body` threw a ``WebImageError``, 0 if it succeeded; records an issue for other errors.
    private func outcome(_ body: () throws -> Void) -> Int {
        do {
            try body()
            return 0
        } catch is WebImageError {
            return 1
        } catch {
            Issue.record("unexpected error type: \(error)")
            return 1
        }
    }
}
