#if AVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// AVIF sequences against Pillow's decodes (stills, alpha, high bit depths, orientation,
    /// thumbnails and the pixel limit are in SharedDecodingTests).
    @Suite("AVIF decoding")
    struct AVIFDecodingTests {
        typealias S = AVIFTestSupport

        @Test func aSequenceDecodesEveryFrameWithItsDurationEagerlyOrLazily() throws {
            let data = try S.data("animated")
            let info = try AVIFCoder().imageInfo(for: data)
            #expect(info.frameCount == 4 && info.loopCount == 0)
            for lazy in [false, true] {
                let image = try S.decode(data) { $0.lazyAnimatedFrames = lazy }
                let animation = try #require(image.animation)
                #expect(animation.frameCount == 4)
                for index in 0..<4 {
                    let frame = try animation.frame(at: index)
                    #expect(abs(frame.duration - [0.1, 0.2, 0.05, 0.3][index]) < 0.001, "frame \(index)")
                    let reference = try S.reference("animated-\(index)", PixelSize(width: 40, height: 30))
                    #expect(
                        PixelMetrics.maxVisibleDifference(frame.bitmap, reference) <= 2, "frame \(index), lazy \(lazy)")
                }
            }
            let first = try S.decode(data) { $0.firstFrameOnly = true }
            #expect(first.animation == nil)
            #expect(
                PixelMetrics.maxVisibleDifference(first.bitmap, try S.reference("animated-0", first.bitmap.size)) <= 2)
        }

    }
#endif
