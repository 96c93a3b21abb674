import Foundation
import Testing

@testable import WebImage

@Suite("WebP animated decoding")
struct WebPAnimatedDecodingTests {
    let coder = WebPCoder()

    @Test func framesDurationsAndLoopCountComeFromTheFile() throws {
        let image = try coder.decode(try Fixtures.data("webp/animated.webp"), options: ImageDecodeOptions())
        let animation = try #require(image.animation)
        #expect(animation.isFullyDecoded)
        #expect(animation.frameCount == 5)
        #expect(animation.loopCount == 2)
        #expect(image.width == 40 && image.height == 30)
        // 10 ms follows SDWebImageWebPCoder's rule and becomes 100 ms.
        let durations = (0..<5).map { animation.duration(at: $0) }
        #expect(durations == [0.1, 0.2, 0.05, 0.3, 0.1])
        for (index, colour) in WebPTestSupport.animatedColours.enumerated() {
            let frame = try animation.frame(at: index)
            #expect(frame.bitmap.size == PixelSize(width: 40, height: 30))
            #expect(frame.bitmap[20, 15] == colour, "frame \(index)")
            #expect(frame.bitmap[39, 29] == colour, "frame \(index)")
        }
        #expect(image.bitmap == (try animation.frame(at: 0)).bitmap)
        #expect(image.memoryCost == 5 * 40 * 30 * 4)
    }

    @Test func subRectangleFramesAreCompositedOntoTheCanvas() throws {
        let image = try coder.decode(try Fixtures.data("webp/subframes.webp"), options: ImageDecodeOptions())
        let frames = try #require(image.animation).allFrames()
        #expect(frames.count == 3)
        let hasAlpha = image.hasAlpha
        #expect(hasAlpha)
        let red = RGBA8(r: 255, g: 0, b: 0)
        let green = RGBA8(r: 0, g: 255, b: 0)
        let blue = RGBA8(r: 0, g: 0, b: 255)
        for frame in frames { #expect(frame.bitmap.size == PixelSize(width: 48, height: 48)) }
        #expect(frames[0].bitmap[4, 4] == red)
        #expect(frames[0].bitmap[40, 40].a == 0)
        #expect(frames[1].bitmap[4, 4] == red)
        #expect(frames[1].bitmap[40, 40] == green)
        #expect(frames[1].bitmap[24, 24].a == 0)
        #expect(frames[2].bitmap[4, 4] == red)
        #expect(frames[2].bitmap[34, 34] == blue)
        #expect(frames[2].bitmap[44, 44] == green)
        #expect(try #require(image.animation).loopCount == 0)
    }

    @Test func firstFrameOnlyGivesAStillImage() throws {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let image = try coder.decode(try Fixtures.data("webp/animated.webp"), options: options)
        #expect(image.animation == nil)
        #expect(image.bitmap[10, 10] == WebPTestSupport.animatedColours[0])
        #expect(image.width == 40 && image.height == 30)
    }

    @Test func lazyFramesEqualEagerFramesInAnyOrder() throws {
        let data = try Fixtures.data("webp/subframes.webp")
        let eager = try #require(try coder.decode(data, options: ImageDecodeOptions()).animation)
        var options = ImageDecodeOptions()
        options.lazyAnimatedFrames = true
        let image = try coder.decode(data, options: options)
        let lazy = try #require(image.animation)
        #expect(!lazy.isFullyDecoded)
        #expect(lazy.frameCount == 3 && lazy.loopCount == 0)
        for index in [2, 0, 1, 1, 2, 0, 2] {
            #expect(try lazy.frame(at: index) == (try eager.frame(at: index)), "frame \(index)")
        }
        // libwebp's two canvases, not the frames handed out.
        #expect(lazy.heldByteCount == 2 * 48 * 48 * 4)
        #expect(image.memoryCost == 2 * 48 * 48 * 4)
    }

    @Test func framesPastTheByteBudgetAreDecodedLazily() throws {
        var options = ImageDecodeOptions()
        options.maxAnimationByteCount = 4 * 40 * 30 * 4
        let image = try coder.decode(try Fixtures.data("webp/animated.webp"), options: options)
        let animation = try #require(image.animation)
        #expect(!animation.isFullyDecoded)
        #expect(try animation.frame(at: 3).bitmap[0, 0] == WebPTestSupport.animatedColours[3])
        #expect(animation.duration(at: 1) == 0.2)
        options.maxAnimationByteCount = 5 * 40 * 30 * 4
        #expect(try coder.decode(try Fixtures.data("webp/animated.webp"), options: options).animation?.isFullyDecoded == true)
    }

    @Test func providerServesFramesAndRejectsBadIndices() throws {
        let data = try Fixtures.data("webp/animated.webp")
        let provider = try coder.animatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.frameCount == 5 && provider.loopCount == 2)
        #expect(provider.animatedImageData == data)
        #expect(provider.heldByteCount == 0)
        #expect(try provider.frame(at: 4)[0, 0] == WebPTestSupport.animatedColours[4])
        #expect(try provider.frame(at: 1)[0, 0] == WebPTestSupport.animatedColours[1])
        #expect(provider.duration(at: 3) == 0.3)
        #expect(throws: WebImageError.self) { try provider.frame(at: 5) }
        #expect(throws: WebImageError.self) { try provider.frame(at: -1) }
        #expect(try provider.frame(at: 2)[0, 0] == WebPTestSupport.animatedColours[2])
    }

    @Test func animatedThumbnailsResampleEveryFrame() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 20, height: 20)
        let image = try coder.decode(try Fixtures.data("webp/animated.webp"), options: options)
        #expect(image.isThumbnail)
        let frames = try #require(image.animation).allFrames()
        #expect(frames.count == 5)
        for (index, frame) in frames.enumerated() {
            #expect(frame.bitmap.size == PixelSize(width: 20, height: 15))
            #expect(frame.bitmap[10, 7] == WebPTestSupport.animatedColours[index])
        }
        options.lazyAnimatedFrames = true
        let lazy = try #require(try coder.decode(try Fixtures.data("webp/animated.webp"), options: options).animation)
        #expect(try lazy.frame(at: 3).bitmap.size == PixelSize(width: 20, height: 15))
    }

    @Test func sharedManagerGivesAProvider() throws {
        let provider = try ImageCodersManager.shared.animatedImageProvider(
            for: try Fixtures.data("webp/animated.webp"), options: ImageDecodeOptions())
        #expect(provider.frameCount == 5)
    }
}
