#if AVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// AVIF stills, alpha, high bit depths, sequences and orientation, against Pillow's decodes.
    @Suite("AVIF decoding")
    struct AVIFDecodingTests {
        typealias S = AVIFTestSupport

        /// 10- and 12-bit pictures are scaled to 8 bits: libavif versions round that step apart by
        /// one more level than 8-bit ones.
        @Test(arguments: [
            ("still", 64, 48, 2), ("photo", 192, 128, 2), ("depth10", 64, 48, 3), ("depth12", 64, 48, 3),
        ])
        func opaquePicturesMatchPillowsDecode(name: String, width: Int, height: Int, tolerance: Int) throws {
            let data = try S.data(name)
            #expect(AVIFCoder().canDecode(data))
            #expect(ImageCodersManager.shared.canDecode(data))
            let image = try S.decode(data)
            #expect(image.format == .avif && !image.hasAlpha && image.animation == nil)
            #expect(image.bitmap.size == PixelSize(width: width, height: height))
            let reference = try S.reference(name, image.bitmap.size)
            #expect(PixelMetrics.maxVisibleDifference(image.bitmap, reference) <= tolerance, "\(name)")
        }

        @Test func alphaIsStraightAndMatchesPillow() throws {
            let image = try S.decode(try S.data("alpha"))
            #expect(image.hasAlpha)
            let reference = try S.reference("alpha", PixelSize(width: 32, height: 32))
            #expect(PixelMetrics.maxVisibleDifference(image.bitmap, reference) <= 2)
            // Not premultiplied: the half-transparent green block keeps its full green.
            #expect(image.bitmap[4, 20].a == 128 && image.bitmap[4, 20].g >= 198)
            #expect(image.bitmap[20, 20].a == 0)
        }

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

        @Test func rotationAndMirroringAreAppliedOrReported() throws {
            let data = try S.data("rotated")
            let info = try AVIFCoder().imageInfo(for: data)
            #expect(info.orientation == .leftMirrored && info.width == 32 && info.height == 48)
            let upright = try S.decode(data)
            #expect(upright.orientation == .up && upright.bitmap.size == PixelSize(width: 32, height: 48))
            #expect(
                PixelMetrics.maxVisibleDifference(upright.bitmap, try S.reference("rotated", upright.bitmap.size)) <= 3)
            let stored = try S.decode(data) { $0.applyOrientation = false }
            #expect(stored.orientation == .leftMirrored && stored.bitmap.size == PixelSize(width: 48, height: 32))
            // The stored top-left block is red; transposed, it stays top-left.
            #expect(stored.bitmap[2, 2].r > 200 && upright.bitmap[2, 2].r > 200)
            #expect(upright.bitmap[30, 46].b > 200)
        }

        @Test func aThumbnailIsDecodedWholeAndResampled() throws {
            let image = try S.decode(try S.data("photo")) { $0.thumbnailPixelSize = PixelSize(width: 96, height: 96) }
            #expect(image.isThumbnail)
            #expect(image.bitmap.size == PixelSize(width: 96, height: 64))
        }

        @Test func aPictureAboveThePixelLimitIsRefusedBeforeDecoding() throws {
            #expect {
                _ = try S.decode(try S.data("photo")) { $0.maxPixelCount = 192 * 128 - 1 }
            } throws: { error in
                (error as? WebImageError)?.code == .imageTooLarge
            }
        }
    }
#endif
