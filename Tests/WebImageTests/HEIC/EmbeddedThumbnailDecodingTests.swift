#if HEIC
    import Foundation
    import Testing

    @testable import WebImage

    /// `prefersEmbeddedThumbnail`: a HEIC or AVIF file's thumbnail item decoded instead of its
    /// primary image (fixtures by heif-enc -t 64: a 256x192 image, a 64x48 thumbnail).
    @Suite("HEIC and AVIF embedded thumbnails")
    struct EmbeddedThumbnailDecodingTests {
        static func decode(_ data: Data, thumbnail: Bool) throws -> Image {
            var options = ImageDecodeOptions()
            options.prefersEmbeddedThumbnail = thumbnail
            return try ImageCodersManager.shared.decode(data, options: options)
        }

        @Test(arguments: ["heic/thumbnail.heic", "avif/thumbnail.avif"])
        func theThumbnailIsDecodedOnlyWhenPreferred(fixture: String) throws {
            let data = try Fixtures.data(fixture)
            let main = try Self.decode(data, thumbnail: false)
            #expect(main.width == 256 && main.height == 192 && !main.isThumbnail)
            let thumbnail = try Self.decode(data, thumbnail: true)
            #expect(thumbnail.width == 64 && thumbnail.height == 48 && thumbnail.isThumbnail)
            #expect(thumbnail.format == main.format)
            // The same picture, smaller: a 4x4 box of the main image is close to a thumbnail pixel.
            let box = try main.bitmap.resampled(to: PixelSize(width: 64, height: 48))
            #expect(PixelMetrics.psnr(box, thumbnail.bitmap) > 25)

            var options = ImageDecodeOptions()
            #expect(try ImageCodersManager.shared.imageInfo(for: data, options: options).width == 256)
            options.prefersEmbeddedThumbnail = true
            let info = try ImageCodersManager.shared.imageInfo(for: data, options: options)
            #expect(info.width == 64 && info.height == 48 && info.format == main.format)
        }

        @Test(arguments: ["heic/still.heic", "avif/still.avif"])
        func aFileWithoutAThumbnailDecodesItsPrimaryImageEitherWay(fixture: String) throws {
            let data = try Fixtures.data(fixture)
            let plain = try Self.decode(data, thumbnail: false)
            let preferred = try Self.decode(data, thumbnail: true)
            #expect(preferred.bitmap == plain.bitmap && !preferred.isThumbnail)
            #expect(EmbeddedThumbnails.info(in: data) == nil)
        }

        @Test func theOptionIsPartOfTheDecodeOptionsEquality() {
            var options = ImageDecodeOptions()
            options.prefersEmbeddedThumbnail = true
            #expect(options != ImageDecodeOptions())
        }
    }
#endif
