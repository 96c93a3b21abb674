import Foundation
import Testing

@testable import WebImage

@Suite("GIF mutated input")
struct GIFMutationTests {
    @Test("fixtures with random bytes changed decode or throw WebImageError: eager, lazy and partial")
    func mutatedFixtures() throws {
        var random = SplitMix64(seed: 42)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 16
        var lazyOptions = options
        lazyOptions.lazyAnimatedFrames = true
        for name in ["static", "disposal_previous", "interlaced", "local_palette", "pillow_noise"] {
            let original = [UInt8](try Fixtures.data("gif/\(name).gif"))
            for _ in 0..<150 {
                let bytes = random.overwritingBytes(in: original, atMost: 6, from: 6)
                let data = Data(bytes)
                do {
                    let image = try GIFCoder().decode(data, options: options)
                    let lazy = try GIFCoder().decode(data, options: lazyOptions)
                    #expect(try lazy.animation?.allFrames() == (try image.animation?.allFrames()))
                } catch {
                    // A WebImageError (the only error decode's typed throws allow): damaged data may fail.
                }
                let incremental = GIFCoder().makeIncrementalDecoder(options: options)
                incremental.update(data.prefix(Int.random(in: 0...data.count, using: &random)), isFinal: false)
                // Fails with a WebImageError, if at all: currentImage's typed throws allow no other.
                _ = try? incremental.currentImage()
            }
        }
    }
}
