#if ColorManagement
    import Foundation
    import Testing

    @testable import WebImage

    /// ICC profiles converted to sRGB on decode, compared with Pillow's ImageCms (its own Little
    /// CMS) on the fixtures of Tests/Fixtures/generators/color.py.
    @Suite("Colour management: embedded ICC profiles converted to sRGB")
    struct ColorManagementTests {
        static let size = PixelSize(width: 64, height: 48)

        static func decode(_ name: String, _ configure: (inout ImageDecodeOptions) -> Void = { _ in }) throws -> Image {
            try ImageCodersManager.shared.decode(Fixtures.data("color/\(name)"), configure)
        }

        static func pixels(_ name: String) throws -> ImageBitmap { try Fixtures.pixels("color/\(name)", size) }

        static func reference(of file: String) throws -> ImageBitmap {
            try pixels(file + ".rgba")
        }

        static func profile(_ name: String) throws -> Data { try Fixtures.data("color/\(name).icc") }

        /// Measured exact everywhere (our tables against Pillow's Little CMS 2.19, on the same decoded
        /// pixels: JPEG, WebP lossless, AVIF and HEIC at 4:4:4 decode identically here). AVIF and HEIC
        /// allow one level for the YUV→RGB rounding of other libavif and libheif versions.
        @Test(arguments: [
            ("display-p3.png", 0), ("adobe-rgb-alpha.png", 0), ("display-p3.webp", 0), ("adobe-rgb.tif", 0),
            ("adobe-rgb.jpg", 0), ("gray-gamma18.jpg", 0), ("display-p3.avif", 1), ("display-p3.heic", 1),
        ])
        func convertsEachFormatsEmbeddedProfileToSRGBAsLittleCMSDoes(file: String, tolerance: Int) throws {
            let image = try Self.decode(file)
            let reference = try Self.reference(of: file)
            #expect(PixelMetrics.maxVisibleDifference(image.bitmap, reference) <= tolerance)
            #expect(image.metadata.iccProfile == nil, "the profile no longer describes the pixels")
            let stored = try Self.decode(file) { $0.convertToSRGB = false }
            #expect(PixelMetrics.maxVisibleDifference(stored.bitmap, reference) > 10, "the conversion moves colours")
        }

        @Test func keepingTheOriginalColorsLeavesPixelsAndProfileAsStored() throws {
            for (file, profile) in [("display-p3.png", "display-p3"), ("adobe-rgb-alpha.png", "adobe-rgb")] {
                let image = try Self.decode(file) { $0.convertToSRGB = false }
                #expect(image.bitmap == (try Self.pixels(file + ".original.rgba")))
                #expect(image.metadata.iccProfile == (try Self.profile(profile)))
            }
            let tiff = try Self.decode("adobe-rgb.tif") { $0.convertToSRGB = false }
            #expect(tiff.metadata.iccProfile == (try Self.profile("adobe-rgb")))
        }

        @Test func theProfileIsReadForTheConversionEvenWhenNoMetadataIsKept() throws {
            let image = try Self.decode("display-p3.png") { $0.readMetadata = [] }
            #expect(PixelMetrics.maxVisibleDifference(image.bitmap, try Self.reference(of: "display-p3.png")) <= 1)
            #expect(image.metadata.isEmpty)
        }

        @Test(arguments: ["srgb.png", "broken-profile.png", "lab-profile.png"])
        func anSRGBBrokenOrNonRGBProfileLeavesThePixelsAsDecoded(file: String) throws {
            let image = try Self.decode(file)
            #expect(image.bitmap == (try Self.reference(of: file)))
            #expect(image.metadata.iccProfile == nil)
        }

        /// Display P3's tone curves made to climb to 32,767 (parametric `a` at its largest): the
        /// tables would overflow, so lcms converts, clipping; no crash, every pixel decoded.
        @Test func aProfileWhoseToneCurvesLeaveZeroToOneIsConvertedByLittleCMS() throws {
            var profile = Array(try Self.profile("display-p3"))
            var patched = 0
            for offset in 0..<(profile.count - 20) where profile[offset..<(offset + 4)].elementsEqual("para".utf8) {
                profile.replaceSubrange((offset + 12)..<(offset + 20), with: [0, 1, 0, 0, 0x7F, 0xFF, 0, 0])
                patched += 1
            }
            #expect(patched >= 1)
            guard SRGBConverter.makeConversion(Data(profile)).kind == .transform else {
                Issue.record("expected lcms to convert")
                return
            }
            let source = Image(
                bitmap: try Self.pixels("display-p3.png.original.rgba"), hasAlpha: false,
                metadata: ImageMetadata(iccProfile: Data(profile)))
            let png = try ImageCodersManager.shared.encode(source, as: .png, options: ImageEncodeOptions())
            let image = try ImageCodersManager.shared.decode(png, options: ImageDecodeOptions())
            #expect(image.bitmap.size == Self.size && image.metadata.iccProfile == nil)
        }

        @Test func theMatrixShaperTablesAgreeWithLittleCMSOnEveryKindOfPixel() throws {
            let noise = SplitMix64.bytes(128 * 128 * 4, seed: 29)
            for name in ["adobe-rgb", "display-p3"] {
                let profile = try Self.profile(name)
                let tables = SRGBConverter.makeConversion(profile)
                let lcms = SRGBConverter.makeConversion(profile, preferringMatrixShaper: false)
                guard tables.kind == .matrixShaper, lcms.kind == .transform else {
                    Issue.record("\(name): expected the matrix-shaper tables and an lcms transform")
                    continue
                }
                var fast = try ImageBitmap(width: 128, height: 128, pixels: noise)
                var reference = fast
                tables.apply(to: &fast)
                lcms.apply(to: &reference)
                #expect(PixelMetrics.maxVisibleDifference(fast, reference) <= 1, "\(name)")
                #expect(
                    zip(fast.pixels, noise).enumerated().allSatisfy {
                        $0.offset % 4 != 3 || $0.element.0 == $0.element.1
                    })
            }
        }

        @Test func aLargeImageConvertedInParallelBandsMatchesRowByRowConversion() throws {
            let conversion = SRGBConverter.makeConversion(try Self.profile("adobe-rgb"))
            let width = 1024
            let height = RowBands.parallelThreshold / width + 7
            let source = SplitMix64.bytes(width * height * 4, seed: 7)
            var whole = try ImageBitmap(width: width, height: height, pixels: source)
            conversion.apply(to: &whole)
            for row in [0, height / 2 - 1, height / 2, height - 1] {
                let range = (row * width * 4)..<((row + 1) * width * 4)
                var single = try ImageBitmap(width: width, height: 1, pixels: Array(source[range]))
                conversion.apply(to: &single)
                #expect(Array(whole.pixels[range]) == single.pixels, "row \(row)")
            }
        }

        @Test(arguments: [false, true])
        func everyFrameOfAnAnimationIsConverted(lazily: Bool) throws {
            let profile = try Self.profile("display-p3")
            let frames = try [0, 1, 2].map { index in
                ImageFrame(bitmap: try Self.pixels("display-p3.png.original.rgba").rotated(by: index), duration: 0.1)
            }
            let animation = Image(
                bitmap: frames[0].bitmap, animation: ImageAnimation(frames: frames, loopCount: 0),
                hasAlpha: false, metadata: ImageMetadata(iccProfile: profile))
            var encode = ImageEncodeOptions()
            encode.lossless = true
            let webp = try ImageCodersManager.shared.encode(animation, as: .webp, options: encode)
            var options = ImageDecodeOptions()
            options.lazyAnimatedFrames = lazily
            let decoded = try ImageCodersManager.shared.decode(webp, options: options)
            let conversion = SRGBConverter.shared.conversion(for: profile)
            for (index, frame) in frames.enumerated() {
                var expected = frame.bitmap
                conversion.apply(to: &expected)
                #expect(try decoded.animation?.frame(at: index).bitmap == expected, "frame \(index)")
            }
            #expect(decoded.animation?.isFullyDecoded == !lazily)
            #expect(decoded.bitmap == (try decoded.animation?.frame(at: 0).bitmap))
        }

        @Test func progressiveDecodingDeliversConvertedPixels() throws {
            let data = try Fixtures.data("color/adobe-rgb.jpg")
            let decoder = ImageCodersManager.shared.makeIncrementalDecoder(options: ImageDecodeOptions())
            decoder.update(data, isFinal: true)
            let image = try #require(try decoder.currentImage())
            #expect(image.bitmap == (try Self.decode("adobe-rgb.jpg").bitmap))
        }

        @Test func aCoderCalledDirectlyKeepsThePixelsAsStored() throws {
            let image = try PNGCoder().decode(Fixtures.data("color/display-p3.png"), options: ImageDecodeOptions())
            #expect(image.bitmap == (try Self.pixels("display-p3.png.original.rgba")))
            #expect(image.metadata.iccProfile == (try Self.profile("display-p3")))
        }
    }

    extension ImageBitmap {
        /// The pixels shifted `offset` places (a different frame of the same size).
        fileprivate func rotated(by offset: Int) throws -> ImageBitmap {
            let shift = offset * 4 * 97 % pixels.count
            return try ImageBitmap(width: width, height: height, pixels: Array(pixels[shift...] + pixels[..<shift]))
        }
    }
#endif
