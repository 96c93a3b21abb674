#if HEIC
    import Foundation
    import Testing

    @testable import WebImage

    /// HEIC stills, alpha, 10-bit pictures, orientation, thumbnails and metadata, against
    /// pillow-heif's decodes.
    @Suite("HEIC decoding")
    struct HEICDecodingTests {
        typealias S = HEICTestSupport

        /// Both sides run libde265 (deterministic) and libheif's integer YUV→RGB conversion, so 4:4:4
        /// pictures, 10-bit included, come out identical. The 4:2:0 one differs by 1 in about 2 % of
        /// its samples: pillow-heif's libheif 1.23 upsamples chroma with other rounding than
        /// Debian's 1.15 (measured against `heif-convert` 1.15 too, which matches this decoder).
        @Test(arguments: [("still", 64, 48, 0), ("photo", 192, 128, 1), ("depth10", 64, 48, 0)])
        func opaquePicturesMatchPillowHeifsDecode(name: String, width: Int, height: Int, tolerance: Int) throws {
            let data = try S.data(name)
            #expect(HEICCoder().canDecode(data))
            #expect(ImageCodersManager.shared.canDecode(data))
            let image = try S.decode(data)
            #expect(image.format == .heic && !image.hasAlpha && image.animation == nil)
            #expect(image.bitmap.size == PixelSize(width: width, height: height))
            let reference = try S.reference(name, image.bitmap.size)
            let difference = S.maxVisibleDifference(image.bitmap, reference)
            #expect(difference <= tolerance, "\(name): \(difference)")
        }

        @Test func alphaIsStraightAndMatchesPillowHeif() throws {
            let image = try S.decode(try S.data("alpha"))
            #expect(image.hasAlpha)
            let reference = try S.reference("alpha", PixelSize(width: 32, height: 32))
            let difference = S.maxVisibleDifference(image.bitmap, reference)
            #expect(difference <= 0, "\(difference)")
            // Not premultiplied: the half-transparent green block keeps its full green.
            #expect(image.bitmap[4, 20].a == 128 && image.bitmap[4, 20].g >= 195)
            #expect(image.bitmap[20, 20].a == 0)
        }

        @Test func rotationAndMirroringAreAppliedOrReported() throws {
            let data = try S.data("rotated")
            let info = try HEICCoder().imageInfo(for: data)
            #expect(info.orientation == .leftMirrored && info.width == 32 && info.height == 48)
            let upright = try S.decode(data)
            #expect(upright.orientation == .up && upright.bitmap.size == PixelSize(width: 32, height: 48))
            #expect(S.maxVisibleDifference(upright.bitmap, try S.reference("rotated", upright.bitmap.size)) <= 0)
            let stored = try S.decode(data) { $0.applyOrientation = false }
            #expect(stored.orientation == .leftMirrored && stored.bitmap.size == PixelSize(width: 48, height: 32))
            #expect(stored.orientedSize == upright.bitmap.size)
            // The stored top-left block is red and the bottom-right one blue; transposed, they stay
            // in their corners.
            #expect(stored.bitmap[2, 2].r > 200 && upright.bitmap[2, 2].r > 200)
            #expect(stored.bitmap[46, 30].b > 200 && upright.bitmap[30, 46].b > 200)
            #expect(stored.bitmap.applyingOrientation(.leftMirrored) == upright.bitmap)
        }

        @Test func aThumbnailIsDecodedWholeAndResampled() throws {
            let image = try S.decode(try S.data("photo")) { $0.thumbnailPixelSize = PixelSize(width: 96, height: 96) }
            #expect(image.isThumbnail)
            #expect(image.bitmap.size == PixelSize(width: 96, height: 64))
            let rotated = try S.decode(try S.data("rotated")) {
                $0.thumbnailPixelSize = PixelSize(width: 16, height: 16)
            }
            #expect(rotated.isThumbnail && rotated.bitmap.size == PixelSize(width: 11, height: 16))
        }

        @Test func theFirstFrameIsThePrimaryImage() throws {
            let data = try S.data("still")
            let first = try S.decode(data) { $0.firstFrameOnly = true }
            let full = try S.decode(data)
            #expect(first.frameCount == 1 && first.bitmap == full.bitmap)
            #expect(try HEICCoder().imageInfo(for: data).frameCount == 1)
        }

        @Test func aPictureAboveThePixelLimitIsRefusedBeforeDecoding() throws {
            #expect {
                _ = try S.decode(try S.data("photo")) { $0.maxPixelCount = 192 * 128 - 1 }
            } throws: { error in
                (error as? WebImageError)?.code == .imageTooLarge
            }
            #expect(
                try S.decode(try S.data("photo")) { $0.maxPixelCount = 192 * 128 }.bitmap.pixels.count == 192 * 128 * 4)
        }

        @Test func embeddedICCEXIFAndXMPAreReadAsAsked() throws {
            let data = try S.data("metadata")
            let icc = try Fixtures.data("metadata/srgb.icc")
            let xmp = try Fixtures.data("metadata/metadata.xmp")
            let all = try S.decode(data) { $0.readMetadata = .all }
            #expect(all.metadata.iccProfile == icc)
            #expect(all.metadata.xmp == xmp)
            let exif = try #require(all.metadata.exif)
            #expect(exif.starts(with: Data("MM\0*".utf8)) || exif.starts(with: Data("II*\0".utf8)))
            #expect(exif.range(of: Data("WebImageTests".utf8)) != nil)
            let byDefault = try S.decode(data)
            #expect(byDefault.metadata == ImageMetadata(iccProfile: icc))
            #expect(try S.decode(data) { $0.readMetadata = [] }.metadata.isEmpty)
        }

        /// A `mif1` major brand is plain HEIF: the same coder reads it and reports ``ImageFormat/heif``.
        @Test func aMif1MajorBrandDecodesAsHEIF() throws {
            var bytes = [UInt8](try S.data("still"))
            bytes.replaceSubrange(8..<12, with: Array("mif1".utf8))
            let data = Data(bytes)
            #expect(ImageFormat(detecting: data) == .heif)
            #expect(ImageCodersManager.shared.canDecode(data))
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            #expect(image.format == .heif)
            #expect(try HEICCoder().imageInfo(for: data).format == .heif)
            let asHEIC = try S.decode(try S.data("still"))
            #expect(image.bitmap == asHEIC.bitmap)
        }
    }
#endif
