#if JPEGXL
    import Foundation
    import Testing

    @testable import WebImage

    /// JPEG XL stills, alpha, animations and colour profiles, against an independent decoder's pixels
    /// (jxl-oxide, through pillow-jxl-plugin) or the lossless sources (orientation, thumbnails and
    /// the pixel limit are in SharedDecodingTests).
    @Suite("JPEG XL decoding")
    struct JPEGXLDecodingTests {
        typealias S = JPEGXLTestSupport

        @Test func losslessPicturesMatchTheReferenceExactly() throws {
            for (name, size, alpha) in [
                ("lossless", PixelSize(width: 64, height: 48), false),
                ("alpha", PixelSize(width: 32, height: 32), true),
            ] {
                let data = try S.data(name)
                #expect(JPEGXLCoder().canDecode(data) && ImageCodersManager.shared.canDecode(data))
                let image = try S.decode(data)
                #expect(image.format == .jpegXL && image.hasAlpha == alpha && image.animation == nil, "\(name)")
                #expect(image.bitmap == (try S.reference(name, size)), "\(name)")
            }
        }

        @Test func alphaIsStraightNotPremultiplied() throws {
            let image = try S.decode(try S.data("alpha"))
            // The half-transparent green block keeps its full green.
            #expect(image.bitmap[4, 20] == RGBA8(r: 0, g: 200, b: 0, a: 128))
            #expect(image.bitmap[20, 20].a == 0)
        }

        /// libjxl and jxl-oxide both decode VarDCT in floating point and round to 8 bits at the end;
        /// measured, they differ by at most 1 level on this file. 2 leaves room for a libjxl update.
        @Test func aLossyPictureMatchesTheIndependentDecoderWithinTwoLevels() throws {
            let image = try S.decode(try S.data("photo"))
            #expect(image.bitmap.size == PixelSize(width: 192, height: 128) && !image.hasAlpha)
            #expect(image.metadata.iccProfile == nil, "decoded to sRGB, so no profile")
            #expect(PixelMetrics.maxVisibleDifference(image.bitmap, try S.reference("photo", image.bitmap.size)) <= 2)
        }

        @Test func anAnimationDecodesEveryFrameWithDurationsAndLoopCountEagerlyOrLazily() throws {
            let data = try S.data("animated")
            let info = try JPEGXLCoder().imageInfo(for: data)
            // cjxl 0.7 drops the APNG's loop count: `jxlinfo -v` says num_loops 0 (forever).
            #expect(info.frameCount == 4 && info.loopCount == 0 && info.width == 40 && info.height == 30)
            for lazy in [false, true] {
                let image = try S.decode(data) { $0.lazyAnimatedFrames = lazy }
                let animation = try #require(image.animation)
                #expect(animation.frameCount == 4 && animation.loopCount == 0)
                #expect(animation.isFullyDecoded != lazy)
                // Out of order, to make the lazy decoder rewind.
                for index in [0, 1, 3, 2, 0] {
                    let frame = try animation.frame(at: index)
                    #expect(abs(frame.duration - [0.1, 0.2, 0.05, 0.3][index]) < 0.0001, "frame \(index)")
                    #expect(frame.bitmap == (try S.reference("animated-\(index)", PixelSize(width: 40, height: 30))))
                }
            }
            let first = try S.decode(data) { $0.firstFrameOnly = true }
            #expect(first.animation == nil)
            #expect(first.bitmap == (try S.reference("animated-0", first.bitmap.size)))
        }

        @Test func anEmbeddedProfileIsReportedWhenAskedFor() throws {
            let data = try S.data("display-p3")
            let profile = try Fixtures.data("color/display-p3.icc")
            let image = try S.decode(data)
            #expect(image.metadata.iccProfile == profile)
            #expect(image.bitmap == (try S.reference("display-p3", image.bitmap.size)), "stored pixels, unconverted")
            #expect(try S.decode(data) { $0.readMetadata = [] }.metadata.iccProfile == nil)
            // Through the manager, the pixels are converted to sRGB and the profile dropped.
            let converted = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            #expect(converted.metadata.iccProfile == nil && converted.bitmap != image.bitmap)
        }

        /// pillow-jxl-plugin wrote the boxes, plain and Brotli-compressed (`brob`), its `Exif` box
        /// without the offset field ours writes (the encoding tests read that form back).
        @Test(arguments: ["metadata", "metadata-brob"])
        func exifAndXMPBoxesAreReadWhenAskedFor(name: String) throws {
            let data = try S.data(name)
            let image = try S.decode(data) { $0.readMetadata = .all }
            let exif = try #require(image.metadata.exif)
            #expect(exif.starts(with: [0x4D, 0x4D, 0, 0x2A]), "the TIFF data, past the box's offset field")
            #expect(exif.range(of: Data("WebImageTest".utf8)) != nil)
            #expect(image.metadata.xmp == Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8))
            #expect(image.bitmap == ImageBitmap(width: 16, height: 8, fill: RGBA8(r: 10, g: 20, b: 30)))
            let plain = try S.decode(data)
            #expect(plain.metadata.exif == nil && plain.metadata.xmp == nil)
        }

    }
#endif
