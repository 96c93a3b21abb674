#if JPEGXL
    import Foundation
    import Testing

    @testable import WebImage

    /// JPEG XL while it downloads: nothing before the DC image, then the whole picture blurred,
    /// and the one-shot decode at the end.
    @Suite("JPEG XL incremental decoding")
    struct JPEGXLIncrementalDecodingTests {
        typealias S = JPEGXLTestSupport
        let coder = JPEGXLCoder()

        /// The decoder's answer for the first `fraction` of `data`.
        func partial(_ data: Data, _ fraction: Double, options: ImageDecodeOptions = ImageDecodeOptions()) throws
            -> Image?
        {
            let decoder = coder.makeIncrementalDecoder(options: options)
            decoder.update(data.prefix(Int(clamping: Double(data.count) * fraction)), isFinal: false)
            return try decoder.currentImage()
        }

        @Test func prefixesBeforeTheDCImageGiveNoImage() throws {
            let data = try S.data("progressive")
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            // The header ends near byte 400 and the DC image near byte 2000 (12 %).
            for end in [0, 2, 12, 100, 400, 1000, data.count / 10] {
                decoder.update(data.prefix(end), isFinal: false)
                #expect(try decoder.currentImage() == nil, "\(end) bytes")
            }
        }

        @Test func fromTheDCImageOnTheWholePictureShowsBlurredThenSharper() throws {
            let data = try S.data("progressive")
            let oneShot = try S.decode(data)
            var quality: [Double] = []
            for fraction in [0.25, 0.5, 0.9] {
                let image = try #require(try partial(data, fraction), "\(fraction)")
                #expect(image.isIncremental && !image.isThumbnail)
                #expect(image.width == 320 && image.height == 240)
                #expect(image.format == .jpegXL)
                #expect(image.bitmap != oneShot.bitmap)
                quality.append(PixelMetrics.psnr(image.bitmap, oneShot.bitmap))
            }
            // Measured: 26.8 dB for the upsampled DC image (25 % and 50 %), 32.3 dB once the first
            // 256-pixel group's detail is in (90 %).
            #expect(quality.allSatisfy { $0 > 25 }, "\(quality)")
            #expect(quality[2] > quality[0] + 3, "\(quality)")
        }

        @Test func growingPrefixesFeedOneDecoderAndEndWithTheOneShotImage() throws {
            let data = try S.data("progressive")
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            var partials = 0
            for end in stride(from: 0, to: data.count, by: 700) {
                decoder.update(data.prefix(end), isFinal: false)
                guard let image = try decoder.currentImage() else {
                    #expect(partials == 0, "no image after a partial one, at \(end) bytes")
                    continue
                }
                #expect(image.isIncremental && image.width == 320 && image.height == 240)
                partials += 1
            }
            #expect(partials >= 15)
            decoder.update(data, isFinal: true)
            let final = try #require(try decoder.currentImage())
            #expect(!final.isIncremental)
            #expect(final.bitmap == (try S.decode(data)).bitmap)
        }

        @Test func losslessFilesShowTheirFirstFrameOnlyOnceComplete() throws {
            // Lossless files have no DC image; the orientation is applied to the partial image too.
            let data = try S.data("rotated")
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            decoder.update(data.dropLast(8), isFinal: false)
            #expect(try decoder.currentImage() == nil)
            decoder.update(data, isFinal: false)
            let image = try #require(try decoder.currentImage())
            #expect(image.isIncremental && image.orientation == .up)
            #expect(image.bitmap == (try S.reference("rotated", PixelSize(width: 32, height: 48))))
        }

        @Test func thumbnailsAndKeptOrientationApplyToPartialImages() throws {
            var options = ImageDecodeOptions()
            options.thumbnailPixelSize = PixelSize(width: 160, height: 160)
            let thumbnail = try #require(try partial(S.data("progressive"), 0.5, options: options))
            #expect(thumbnail.width == 160 && thumbnail.height == 120 && thumbnail.isThumbnail)

            var kept = ImageDecodeOptions()
            kept.applyOrientation = false
            let rotated = try #require(try partial(S.data("rotated"), 1, options: kept))
            #expect(rotated.orientation == .leftMirrored && rotated.width == 48 && rotated.height == 32)
        }

        @Test func animationsShowTheirFirstFrameUntilTheDataIsFinal() throws {
            let data = try S.data("animated")
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            decoder.update(data, isFinal: false)
            let first = try #require(try decoder.currentImage())
            #expect(first.isIncremental && first.animation == nil)
            #expect(first.bitmap == (try S.reference("animated-0", PixelSize(width: 40, height: 30))))
            decoder.update(data, isFinal: true)
            let final = try #require(try decoder.currentImage())
            #expect(!final.isIncremental && final.frameCount == 4)
        }

        @Test func thePixelLimitRefusesTheHeaderBeforeAnyPixelIsAllocated() throws {
            var options = ImageDecodeOptions()
            options.maxPixelCount = 10_000
            #expect(throws: WebImageError.imageTooLarge(width: 320, height: 240, limit: 10_000)) {
                try partial(S.data("progressive"), 0.3, options: options)
            }
            // 50000 x 50000 pixels claimed by a bare header: refused, not allocated (10 GB).
            let huge = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            huge.update(try S.data("hostile-huge-header"), isFinal: false)
            #expect {
                _ = try huge.currentImage()
            } throws: { error in
                (error as? WebImageError)?.code == .imageTooLarge
            }
        }

    }
#endif
