#if TIFF
    import Foundation
    import Testing

    @testable import WebImage

    /// TIFF through libtiff: every layout of the fixtures against Pillow's decodes, pages as frames,
    /// orientation, lossless round trips and bad input.
    @Suite("TIFF")
    struct TIFFCoderTests: CoderFixtures {
        static let folder = "tiff"
        static let fileExtension = "tif"
        static let format = ImageFormat.tiff
        static var coder: any ImageCoding { ImageCodersManager.shared }

        @Test(arguments: [
            ("rgb_none", 0), ("rgb_lzw", 0), ("rgb_deflate", 0), ("rgb_packbits", 0), ("rgb_tiled", 0), ("palette", 0),
            ("gray", 0), ("gray16", 0), ("rgb_jpeg", 3),
        ])
        func everyLayoutMatchesItsReference(name: String, tolerance: Int) throws {
            let data = try Self.data(name)
            #expect(TIFFCoder().canDecode(data))
            let image = try Self.decode(data)
            #expect(image.format == .tiff && !image.hasAlpha)
            #expect(image.bitmap.size == PixelSize(width: 64, height: 48))
            let reference = try Self.reference(name, image.bitmap.size)
            #expect(PixelMetrics.maxChannelDifference(image.bitmap, reference) <= tolerance, "\(name)")
        }

        @Test func alphaComesOutStraightNotPremultiplied() throws {
            let image = try Self.decode(try Self.data("rgba"))
            #expect(image.hasAlpha)
            #expect(PixelMetrics.maxVisibleDifference(image.bitmap, try Self.reference("rgba", image.bitmap.size)) <= 1)
            #expect(image.bitmap[4, 20].a == 128 && image.bitmap[4, 20].g >= 199)
        }

        @Test func pagesAreFramesAndTheFirstFrameOptionKeepsOne() throws {
            let data = try Self.data("multipage")
            #expect(try TIFFCoder().imageInfo(for: data).frameCount == 3)
            let image = try Self.decode(data)
            let animation = try #require(image.animation)
            #expect(animation.frameCount == 3)
            let colours = [RGBA8(r: 255, g: 0, b: 0), RGBA8(r: 0, g: 255, b: 0), RGBA8(r: 0, g: 0, b: 255)]
            for index in 0..<3 {
                #expect(try animation.frame(at: index).bitmap[5, 5] == colours[index])
            }
            #expect(try Self.decode(data) { $0.firstFrameOnly = true }.animation == nil)
        }

        @Test func theOrientationTagIsAppliedOrReported() throws {
            let data = try Self.data("oriented")
            let info = try TIFFCoder().imageInfo(for: data)
            #expect(info.orientation == .right && info.width == 32 && info.height == 48)
            let upright = try Self.decode(data)
            #expect(upright.bitmap.size == PixelSize(width: 32, height: 48) && upright.orientation == .up)
            #expect(upright.bitmap == (try Self.reference("oriented", upright.bitmap.size)))
            let stored = try Self.decode(data) { $0.applyOrientation = false }
            #expect(stored.orientation == .right && stored.bitmap.size == PixelSize(width: 48, height: 32))
        }

        @Test func aThumbnailIsResampledAndThePixelLimitIsCheckedFirst() throws {
            let thumbnail = try Self.decode(try Self.data("rgb_lzw")) {
                $0.thumbnailPixelSize = PixelSize(width: 32, height: 32)
            }
            #expect(thumbnail.isThumbnail && thumbnail.bitmap.size == PixelSize(width: 32, height: 24))
            #expect {
                _ = try Self.decode(try Self.data("rgb_lzw")) { $0.maxPixelCount = 64 * 48 - 1 }
            } throws: { error in
                (error as? WebImageError)?.code == .imageTooLarge
            }
        }

        @Test func encodingIsLosslessForRGBRGBAAndPages() throws {
            var rgba = ImageBitmap(width: 20, height: 10, fill: .clear)
            for y in 0..<10 {
                for x in 0..<20 {
                    rgba[x, y] = RGBA8(r: UInt8(x * 12), g: UInt8(y * 25), b: 77, a: [255, 128, 0, 255][x % 4])
                }
            }
            // Under alpha 0 a TIFF keeps the colour too (unassociated alpha).
            let withAlpha = try ImageCodersManager.shared.encode(
                Image(bitmap: rgba, format: .png, hasAlpha: true), as: .tiff, options: ImageEncodeOptions())
            #expect(ImageFormat(detecting: withAlpha) == .tiff)
            #expect(try Self.decode(withAlpha).bitmap == rgba)

            let photo = try Self.reference("rgb_lzw", PixelSize(width: 64, height: 48))
            let opaque = try ImageCodersManager.shared.encode(
                Image(bitmap: photo, format: .png, hasAlpha: false), as: .tiff, options: ImageEncodeOptions())
            let decoded = try Self.decode(opaque)
            #expect(decoded.bitmap == photo && !decoded.hasAlpha)

            let frames = [RGBA8.white, RGBA8(r: 9, g: 99, b: 199)].map {
                ImageFrame(bitmap: ImageBitmap(width: 8, height: 6, fill: $0), duration: 0.1)
            }
            let animated = Image(
                bitmap: frames[0].bitmap, format: .gif, animation: ImageAnimation(frames: frames, loopCount: 0),
                hasAlpha: false)
            let pages = try ImageCodersManager.shared.encode(animated, as: .tiff, options: ImageEncodeOptions())
            let readBack = try #require(try Self.decode(pages).animation)
            let second = try readBack.frame(at: 1).bitmap
            #expect(readBack.frameCount == 2 && second == frames[1].bitmap)
        }

        @Test func truncatedAndForeignBytesAreBadData() throws {
            let data = try Self.data("rgb_lzw")
            for length in [0, 4, 8, 100, data.count / 2] {
                #expect(throws: WebImageError.self) { _ = try Self.decode(Data(data.prefix(length))) }
            }
            #expect {
                _ = try TIFFCoder().decode(Data("II*\0 not really a tiff at all".utf8), options: ImageDecodeOptions())
            } throws: { error in
                (error as? WebImageError)?.code == .badImageData
            }
        }
    }
#endif
