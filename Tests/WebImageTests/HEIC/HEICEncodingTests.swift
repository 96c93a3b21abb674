#if HEIC
    import Foundation
    import Testing

    @testable import WebImage

    /// HEIC encoding: lossy round trips, exact lossless ones, odd sizes, metadata, effort and size
    /// limits.
    @Suite("HEIC encoding")
    struct HEICEncodingTests {
        typealias S = HEICTestSupport

        static func photo() throws -> Image {
            Image(bitmap: try S.reference("photo", PixelSize(width: 192, height: 128)), format: .png, hasAlpha: false)
        }

        @Test func aLossyRoundTripKeepsAbove30dBAndQualityTradesBytes() throws {
            let source = try Self.photo()
            let high = try S.encode(source) { $0.compressionQuality = 0.9 }
            let low = try S.encode(source) { $0.compressionQuality = 0.3 }
            #expect(ImageFormat(detecting: high) == .heic)
            #expect(low.count < high.count)
            let decoded = try S.decode(high)
            #expect(decoded.bitmap.size == source.bitmap.size && !decoded.hasAlpha)
            let psnr = S.psnr(decoded.bitmap, source.bitmap)
            #expect(psnr >= 30, "\(psnr) dB")
        }

        /// With the identity matrix on the input image, x265's lossless 4:4:4 coding gives back
        /// every RGB value; alpha travels in its own lossless monochrome picture.
        @Test(arguments: [false, true])
        func losslessKeepsEveryPixelExactly(alpha: Bool) throws {
            let bitmap = S.noise(width: 24, height: 16, alpha: alpha)
            let data = try S.encode(Image(bitmap: bitmap, format: .png, hasAlpha: alpha)) { $0.lossless = true }
            let decoded = try S.decode(data)
            #expect(decoded.hasAlpha == alpha)
            if alpha {
                // Colour under alpha 0 is not kept by the alpha-aware comparison's standard.
                #expect(S.maxVisibleDifference(decoded.bitmap, bitmap) == 0)
            } else {
                #expect(decoded.bitmap == bitmap)
            }
        }

        /// x265 codes 4:2:0 pictures in whole chroma samples; libheif pads odd sizes and crops them
        /// back in the container, so every size round-trips.
        @Test(arguments: [(1, 1), (1, 7), (3, 5), (7, 3), (17, 1), (33, 2)])
        func oddAndTinySizesRoundTrip(width: Int, height: Int) throws {
            let opaque = S.noise(width: width, height: height, alpha: false)
            let lossy = try S.decode(try S.encode(Image(bitmap: opaque, format: .png, hasAlpha: false)))
            #expect(lossy.bitmap.size == opaque.size)
            let transparent = S.noise(width: width, height: height, alpha: true, seed: 11)
            let lossless = try S.decode(
                try S.encode(Image(bitmap: transparent, format: .png, hasAlpha: true)) { $0.lossless = true })
            #expect(lossless.bitmap.size == transparent.size)
            #expect(S.maxVisibleDifference(lossless.bitmap, transparent) == 0)
        }

        @Test func keptMetadataTravelsAndEXIFOrientationIsReset() throws {
            let exif = Data([
                0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0,
            ])
            let icc = try Fixtures.data("metadata/srgb.icc")
            let xmp = Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
            var source = try Self.photo()
            source.metadata = ImageMetadata(exif: exif, iccProfile: icc, xmp: xmp)
            let kept = try S.encode(source) { $0.keptMetadata = .all }
            let decoded = try S.decode(kept) { $0.readMetadata = .all }
            #expect(decoded.metadata.iccProfile == icc)
            #expect(decoded.metadata.xmp == xmp)
            let readBack = try #require(decoded.metadata.exif)
            #expect(readBack.count == exif.count && readBack[19] == 1, "orientation rewritten to 1")
            #expect(decoded.orientation == .up && decoded.bitmap.size == source.bitmap.size)
            let byDefault = try S.decode(try S.encode(source)) { $0.readMetadata = .all }
            #expect(byDefault.metadata == ImageMetadata(iccProfile: icc))
            let stripped = try S.decode(try S.encode(source) { $0.keptMetadata = [] }) { $0.readMetadata = .all }
            #expect(stripped.metadata == ImageMetadata())
        }

        @Test func maxFileSizeLowersTheQualityUntilTheFileFits() throws {
            let source = try Self.photo()
            let full = try S.encode(source) { $0.compressionQuality = 1 }
            let limit = full.count / 3
            let fitted = try S.encode(source) {
                $0.compressionQuality = 1
                $0.maxFileSize = limit
            }
            #expect(fitted.count <= limit)
            #expect(try S.decode(fitted).bitmap.size == source.bitmap.size)
        }

        @Test func effortPicksX265sPresetAndEveryOneWritesAGoodFile() throws {
            #expect(EncodeEffort.allCases.map(HEICCoder.preset) == ["veryfast", "slow", "slower"])
            let source = try Self.photo()
            for effort in EncodeEffort.allCases {
                let decoded = try S.decode(try S.encode(source) { $0.effort = effort })
                #expect(S.psnr(decoded.bitmap, source.bitmap) >= 30, "\(effort)")
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
                psnr[chroma] = S.psnr(decoded.bitmap, bitmap)
            }
            #expect(psnr[.yuv444]! > psnr[.yuv420]! + 5, "\(psnr)")
        }

        @Test func heifIsWrittenAsHEVCCodedHEIC() throws {
            #expect(HEICCoder().canEncode(to: .heif) && HEICCoder().canEncode(to: .heic))
            let data = try ImageCodersManager.shared.encode(try Self.photo(), as: .heif, options: ImageEncodeOptions())
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

        @Test func encodingToAnotherFormatIsUnsupported() throws {
            let image = Image(bitmap: ImageBitmap(width: 2, height: 2, fill: .white), format: .png, hasAlpha: false)
            #expect(!HEICCoder().canEncode(to: .png))
            #expect {
                _ = try HEICCoder().encode(image, as: .avif, options: ImageEncodeOptions())
            } throws: { error in
                (error as? WebImageError)?.code == .unsupportedFormat
            }
        }
    }
#endif
