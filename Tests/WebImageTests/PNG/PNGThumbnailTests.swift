import Foundation
import Testing

@testable import WebImage

@Suite("PNG thumbnails and scale-down limits")
struct PNGThumbnailTests {
    /// A 40×20 PNG: left half red, right half blue, opaque.
    private func halves() throws -> Data {
        var bitmap = ImageBitmap(width: 40, height: 20, fill: RGBA8(r: 255, g: 0, b: 0))
        for y in 0..<20 {
            for x in 20..<40 { bitmap[x, y] = RGBA8(r: 0, g: 0, b: 255) }
        }
        return try PNGCoder().encode(Image(bitmap: bitmap, hasAlpha: false), as: .png, options: ImageEncodeOptions())
    }

    @Test("a thumbnail size decodes then resamples to fit, keeping the aspect ratio")
    func thumbnail() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        let image = try PNGCoder().decode(halves(), options: options)
        #expect(image.isThumbnail)
        #expect(image.bitmap.size == PixelSize(width: 10, height: 5))
        #expect(image.bitmap[1, 2] == RGBA8(r: 255, g: 0, b: 0))
        #expect(image.bitmap[8, 2] == RGBA8(r: 0, g: 0, b: 255))
    }

    @Test("a thumbnail larger than the image keeps the full size and is not a thumbnail")
    func noUpscale() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 400, height: 400)
        let image = try PNGCoder().decode(halves(), options: options)
        #expect(!image.isThumbnail)
        #expect(image.bitmap.size == PixelSize(width: 40, height: 20))
    }

    @Test("scaleDownLimitBytes bounds the decoded bytes")
    func scaleDownLimit() throws {
        var options = ImageDecodeOptions()
        options.scaleDownLimitBytes = 800  // 200 pixels at 2:1 → 20×10
        let image = try PNGCoder().decode(halves(), options: options)
        #expect(image.isThumbnail)
        #expect(image.bitmap.size == PixelSize(width: 20, height: 10))
        #expect(image.bitmap.byteCount <= 800)
    }

    @Test("the thumbnail box applies to the image as shown, after EXIF orientation")
    func thumbnailOfRotatedImage() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 1, height: 2)
        // Stored 3×2, shown 2×3: fitting 1×2 gives 1×ceil(1.5) = 1×2 as shown (2×1 as stored).
        let image = try PNGCoder().decode(PNGFixture.data("exif_right"), options: options)
        #expect(image.isThumbnail)
        #expect(image.orientation == .up)
        #expect(image.bitmap.size == PixelSize(width: 1, height: 2))
    }
}
