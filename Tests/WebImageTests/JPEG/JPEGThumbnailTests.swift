import Foundation
import Testing

@testable import WebImage

@Suite("JPEG DCT-scaled thumbnails")
struct JPEGThumbnailTests {
    @Test func picksTheSmallestDCTScaleCoveringTheTarget() {
        let stored = PixelSize(width: 800, height: 600)
        #expect(JPEGCoder.dctScaleNumerator(stored: stored, target: PixelSize(width: 100, height: 75)) == 1)
        #expect(JPEGCoder.dctScaleNumerator(stored: stored, target: PixelSize(width: 101, height: 75)) == 2)
        #expect(JPEGCoder.dctScaleNumerator(stored: stored, target: PixelSize(width: 200, height: 150)) == 2)
        #expect(JPEGCoder.dctScaleNumerator(stored: stored, target: PixelSize(width: 701, height: 20)) == 8)
        #expect(
            JPEGCoder.scaledSize(PixelSize(width: 801, height: 601), numerator: 1) == PixelSize(width: 101, height: 76))
    }

    @Test func thumbnailFitsTheBoxKeepingTheAspectRatio() throws {
        let image = try JPEGFixture.decode("photo_800x600.jpg") {
            $0.thumbnailPixelSize = PixelSize(width: 200, height: 200)
        }
        #expect(image.bitmap.size == PixelSize(width: 200, height: 150))
        #expect(image.isThumbnail)
        let colours = image.bitmap.quadrantColours
        #expect(colours[0].r > 180 && colours[0].g < 30 && colours[0].b < 30)
        #expect(colours[3].r > 200 && colours[3].g > 200 && colours[3].b < 30)
    }

    @Test func anOddThumbnailSizeIsResampledExactly() throws {
        // SDWebImage's rule: 800×600 into 150×150 → 150 × ceil(150 / (4/3)) = 150×113.
        let image = try JPEGFixture.decode("photo_800x600.jpg") {
            $0.thumbnailPixelSize = PixelSize(width: 150, height: 150)
        }
        #expect(image.bitmap.size == PixelSize(width: 150, height: 113))
    }

    @Test func stretchesWhenNotPreservingTheAspectRatio() throws {
        let image = try JPEGFixture.decode("photo_800x600.jpg") {
            $0.thumbnailPixelSize = PixelSize(width: 100, height: 100)
            $0.preserveAspectRatio = false
        }
        #expect(image.bitmap.size == PixelSize(width: 100, height: 100))
        #expect(image.isThumbnail)
    }

    @Test func aBoxLargerThanTheImageDecodesFullSize() throws {
        let image = try JPEGFixture.decode("photo_800x600.jpg") {
            $0.thumbnailPixelSize = PixelSize(width: 2000, height: 2000)
        }
        #expect(image.bitmap.size == PixelSize(width: 800, height: 600))
        #expect(!image.isThumbnail)
    }

    @Test func scaleDownLimitBytesShrinksToTheByteBudget() throws {
        let image = try JPEGFixture.decode("photo_800x600.jpg") { $0.scaleDownLimitBytes = 100 * 75 * 4 }
        #expect(image.bitmap.size == PixelSize(width: 100, height: 75))
        #expect(image.isThumbnail)
        let roomy = try JPEGFixture.decode("photo_800x600.jpg") { $0.scaleDownLimitBytes = 800 * 600 * 4 }
        #expect(roomy.bitmap.size == PixelSize(width: 800, height: 600) && !roomy.isThumbnail)
    }

    @Test func thumbnailBoxAppliesToTheUprightImage() throws {
        // Stored 32×64, shown 64×32: a 32×32 box gives 32×16 upright.
        let image = try JPEGFixture.decode("orientation_6.jpg") {
            $0.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        }
        #expect(image.bitmap.size == PixelSize(width: 32, height: 16))
        #expect(image.orientation == .up && image.isThumbnail)
        #expect(areClose(image.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 24))
    }

    @Test func thePixelLimitAppliesToTheDCTReducedSize() throws {
        let full = webImageError { _ = try JPEGFixture.decode("photo_800x600.jpg") { $0.maxPixelCount = 10_000 } }
        #expect(full == .imageTooLarge(width: 800, height: 600, limit: 10_000))
        let thumbnail = try JPEGFixture.decode("photo_800x600.jpg") {
            $0.maxPixelCount = 10_000
            $0.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        }
        #expect(thumbnail.bitmap.size == PixelSize(width: 100, height: 75))
    }
}
