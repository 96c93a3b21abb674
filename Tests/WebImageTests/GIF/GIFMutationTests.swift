import Foundation
import Testing

@testable import WebImage

@Suite("GIF mutated input")
struct GIFMutationTests {
    @Test("fixtures with random bytes changed decode or throw WebImageError: eager, lazy and partial")
    func mutatedFixtures() throws {
        var random = SplitMix64(state: 42)
        var options = ImageDecodeOptions()
        options.maxPixelCount = 1 << 16
        var lazyOptions = options
        lazyOptions.lazyAnimatedFrames = true
        for name in ["static", "disposal_previous", "interlaced", "local_palette", "pillow_noise"] {
            let original = [UInt8](try Fixtures.data("gif/\(name).gif"))
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    bytes[Int.random(in: 6..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
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
