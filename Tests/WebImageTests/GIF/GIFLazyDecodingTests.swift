import Foundation
import Testing

@testable import WebImage

@Suite("GIF lazy frames")
struct GIFLazyDecodingTests {
    let coder = GIFCoder()

    func lazyOptions() -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.lazyAnimatedFrames = true
        return options
    }

    @Test("lazy frames equal eager frames, in order and in random order")
    func lazyMatchesEager() throws {
        for name in ["disposal_none", "disposal_background", "disposal_previous", "pillow_noise", "local_palette"] {
            let data = try Fixtures.data("gif/\(name).gif")
            let eager = try #require(try coder.decode(data, options: ImageDecodeOptions()).animation)
            let lazyImage = try coder.decode(data, options: lazyOptions())
            let lazy = try #require(lazyImage.animation)
            #expect(eager.isFullyDecoded)
            #expect(!lazy.isFullyDecoded)
            #expect(lazy.frameCount == eager.frameCount)
            #expect(lazy.loopCount == eager.loopCount)
            #expect(lazyImage.bitmap == (try eager.frame(at: 0).bitmap))
            #expect(try lazy.allFrames() == (try eager.allFrames()), "\(name) in order")
            let order = [2, 0, 1, 1, 2, 0, 2].filter { $0 < eager.frameCount }
            for index in order {
                #expect(try lazy.frame(at: index) == (try eager.frame(at: index)), "\(name) frame \(index)")
            }
        }
    }

    @Test("frames past the animation byte budget are decoded lazily")
    func byteBudget() throws {
        var options = ImageDecodeOptions()
        options.maxAnimationByteCount = 8 * 8 * 4 * 3 - 1
        let image = try coder.decode(try Fixtures.data("gif/disposal_none.gif"), options: options)
        #expect(image.animation?.isFullyDecoded == false)
        options.maxAnimationByteCount = 8 * 8 * 4 * 3
        #expect(
            try coder.decode(try Fixtures.data("gif/disposal_none.gif"), options: options).animation?.isFullyDecoded
                == true)
    }

    @Test("the provider reports its frames, timing and held bytes")
    func provider() throws {
        let provider = try coder.animatedImageProvider(
            for: try Fixtures.data("gif/loop3_delays.gif"), options: ImageDecodeOptions())
        #expect(provider.frameCount == 4)
        #expect(provider.loopCount == 3)
        #expect(provider.duration(at: 3) == 0.5)
        #expect(provider.duration(at: 9) == 0)
        #expect(try provider.frame(at: 1)[0, 0] == GIFTestColor.blue)
        #expect(provider.heldByteCount >= 4 * 4 * 4)
        #expect(provider.heldByteCount < 4096)
        #expect(throws: WebImageError.self) { try provider.frame(at: 4) }
        #expect(throws: WebImageError.self) { try provider.frame(at: -1) }
    }

    @Test("a 10,000-frame GIF decodes in bounded memory")
    func tenThousandFrames() throws {
        var gif = GIFBuilder(width: 32, height: 32)
        let frame = GIFBuilder.Frame(
            x: 0, y: 0, width: 4, height: 4, indices: Array(repeating: 1, count: 16), delay: 2)
        gif.frames = (0..<10_000).map { i in
            var f = frame
            f.x = (i * 4) % 32
            f.y = ((i / 8) * 4) % 32
            f.indices = Array(repeating: UInt8(i % 4), count: 16)
            return f
        }
        var options = ImageDecodeOptions()
        options.maxAnimationByteCount = 1 << 20
        let image = try coder.decode(gif.data, options: options)
        let animation = try #require(image.animation)
        #expect(animation.frameCount == 10_000)
        #expect(!animation.isFullyDecoded)
        var peak = 0
        for index in stride(from: 0, to: 10_000, by: 1) {
            let bitmap = try animation.frame(at: index).bitmap
            if index == 9_999 {
                // Frame 9,999 sits at column 7 (x = 28), row 1249 % 8 = 1 (y = 4), colour index 3.
                #expect(bitmap[28, 4] == RGBA8.black)
            }
            peak = max(peak, animation.heldByteCount)
        }
        #expect(peak < 64 * 1024)
        #expect(abs(animation.totalDuration - 200) < 1e-6)
    }
}
