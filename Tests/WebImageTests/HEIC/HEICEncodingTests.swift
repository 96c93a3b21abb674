#if HEIC
    import Foundation
    import Testing

    @testable import WebImage

    /// HEIC encoding: lossless round trips, odd sizes, effort, chroma subsampling and libheif's size
    /// limit (what it shares with AVIF and JPEG XL is in SharedEncodingTests).
    @Suite("HEIC encoding")
    struct HEICEncodingTests {
        typealias S = HEICTestSupport

        /// With the identity matrix on the input image, x265's lossless 4:4:4 coding gives back
        /// every RGB value; alpha travels in its own lossless monochrome picture.
        @Test(arguments: [false, true])
        func losslessKeepsEveryPixelExactly(alpha: Bool) throws {
            let bitmap = ImageBitmap.noise(width: 24, height: 16, alpha: alpha ? .columns : .opaque)
            let data = try S.encode(Image(bitmap: bitmap, format: .png, hasAlpha: alpha)) { $0.lossless = true }
            let decoded = try S.decode(data)
            #expect(decoded.hasAlpha == alpha)
            if alpha {
                // Colour under alpha 0 is not kept by the alpha-aware comparison's standard.
                #expect(PixelMetrics.maxVisibleDifference(decoded.bitmap, bitmap) == 0)
            } else {
                #expect(decoded.bitmap == bitmap)
            }
        }

        /// x265 codes 4:2:0 pictures in whole chroma samples; libheif pads odd sizes and crops them
        /// back in the container, so every size round-trips.
        @Test(arguments: [(1, 1), (1, 7), (3, 5), (7, 3), (17, 1), (33, 2)])
        func oddAndTinySizesRoundTrip(width: Int, height: Int) throws {
            let opaque = ImageBitmap.noise(width: width, height: height)
            let lossy = try S.decode(try S.encode(Image(bitmap: opaque, format: .png, hasAlpha: false)))
            #expect(lossy.bitmap.size == opaque.size)
            let transparent = ImageBitmap.noise(width: width, height: height, seed: 11, alpha: .columns)
            let lossless = try S.decode(
                try S.encode(Image(bitmap: transparent, format: .png, hasAlpha: true)) { $0.lossless = true })
            #expect(lossless.bitmap.size == transparent.size)
            #expect(PixelMetrics.maxVisibleDifference(lossless.bitmap, transparent) == 0)
        }

        @Test func effortPicksX265sPresetAndEveryOneWritesAGoodFile() throws {
            #expect(EncodeEffort.allCases.map(HEICCoder.preset) == ["veryfast", "slow", "slower"])
            let source = try S.photo()
            for effort in EncodeEffort.allCases {
                let decoded = try S.decode(try S.encode(source) { $0.effort = effort })
                #expect(PixelMetrics.psnr(decoded.bitmap, source.bitmap) >= 30, "\(effort)")
            }
        }

        /// One-pixel red and blue stripes: 4:2:0 averages each pair of columns, 4:4:4 keeps them.
        @Test func chromaSubsamplingChoosesTheColourResolution() throws {
            var bitmap = ImageBitmap(width: 32, height: 32, fill: .clear)
            for y in 0..<32 {
                for x in 0..<32 {
                    bitmap[x, y] = x % 2 == 0 ? RGBA8(r: 220, g: 20, b: 20) : RGBA8(r: 20, g: 20, b: 220)
                }
            }
            let image = Image(bitmap: bitmap, format: .png, hasAlpha: false)
            var psnr: [ChromaSubsampling: Double] = [:]
            for chroma in [ChromaSubsampling.yuv420, .yuv444] {
                let decoded = try S.decode(
                    try S.encode(image) {
                        $0.chromaSubsampling = chroma
                        $0.compressionQuality = 0.9
                    })
                psnr[chroma] = PixelMetrics.psnr(decoded.bitmap, bitmap)
            }
            #expect(psnr[.yuv444]! > psnr[.yuv420]! + 5, "\(psnr)")
        }

        @Test func heifIsWrittenAsHEVCCodedHEIC() throws {
            #expect(HEICCoder().canEncode(to: .heif) && HEICCoder().canEncode(to: .heic))
            let data = try ImageCodersManager.shared.encode(try S.photo(), as: .heif, options: ImageEncodeOptions())
            #expect(ImageFormat(detecting: data) == .heic)
        }

        @Test func aPicturePastLibheifsSideIsRefusedNotEncoded() throws {
            let image = Image(
                bitmap: ImageBitmap(width: 32_769, height: 1, fill: .white), format: .png, hasAlpha: false)
            #expect {
                _ = try S.encode(image)
            } throws: { error in
                (error as? WebImageError)?.code == .encodingFailed
            }
        }

    }
#endif
