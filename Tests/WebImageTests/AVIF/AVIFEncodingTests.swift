#if AVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// AVIF encoding of animations (what it shares with HEIC and JPEG XL is in SharedEncodingTests).
    @Suite("AVIF encoding")
    struct AVIFEncodingTests {
        typealias S = AVIFTestSupport

        @Test func anAnimationBecomesASequenceWithItsDurations() throws {
            let colours = [RGBA8(r: 250, g: 20, b: 20), RGBA8(r: 20, g: 250, b: 20), RGBA8(r: 20, g: 20, b: 250)]
            let frames = colours.enumerated().map { index, colour in
                ImageFrame(
                    bitmap: ImageBitmap(width: 32, height: 24, fill: colour), duration: [0.1, 0.25, 0.04][index])
            }
            let image = Image(
                bitmap: frames[0].bitmap, format: .gif, animation: ImageAnimation(frames: frames, loopCount: 0),
                hasAlpha: false)
            let data = try S.encode(image)
            let decoded = try S.decode(data)
            let animation = try #require(decoded.animation)
            #expect(animation.frameCount == 3)
            for index in 0..<3 {
                let frame = try animation.frame(at: index)
                #expect(abs(frame.duration - frames[index].duration) < 0.001)
                #expect(
                    PixelMetrics.maxChannelDifference(frame.bitmap, frames[index].bitmap) <= 6, "frame \(index)")
            }
            let still = try S.encode(image) { $0.firstFrameOnly = true }
            #expect(try AVIFCoder().imageInfo(for: still).frameCount == 1)
        }

    }
#endif
