import Testing

@testable import WebImage

@Suite("Decode geometry (SDImageCoderHelper's sizing rules)")
struct DecodeGeometryTests {
    let portrait = PixelSize(width: 100, height: 200)

    @Test("SDWebImage's scaledSize table")
    func scaledSizeTable() {
        func scaled(_ box: Int, aspect: Bool, up: Bool) -> PixelSize {
            DecodeGeometry.scaledSize(
                portrait, fitting: PixelSize(width: box, height: box), preserveAspectRatio: aspect,
                shouldScaleUp: up)
        }
        #expect(scaled(150, aspect: true, up: false) == PixelSize(width: 75, height: 150))
        #expect(scaled(300, aspect: true, up: false) == PixelSize(width: 100, height: 200))
        #expect(scaled(300, aspect: true, up: true) == PixelSize(width: 150, height: 300))
        #expect(scaled(150, aspect: false, up: false) == PixelSize(width: 100, height: 150))
        #expect(scaled(150, aspect: false, up: true) == PixelSize(width: 150, height: 150))
    }

    @Test("Zero sizes give the image size back")
    func zeroSizesAreIgnored() {
        #expect(
            DecodeGeometry.scaledSize(portrait, fitting: .zero, preserveAspectRatio: true, shouldScaleUp: true)
                == portrait)
    }

    @Test("The short side is rounded up, as SDWebImage's ceil")
    func shortSideRoundsUp() {
        let size = DecodeGeometry.scaledSize(
            PixelSize(width: 5250, height: 3450), fitting: PixelSize(width: 400, height: 300),
            preserveAspectRatio: true, shouldScaleUp: false)
        #expect(size == PixelSize(width: 400, height: 263))
    }

    @Test("Byte limits follow limit / 4 / frames pixels per frame")
    func byteLimitFormula() {
        let size = DecodeGeometry.scaledSize(PixelSize(width: 4000, height: 3000), limitBytes: 4_000_000, frameCount: 1)
        #expect(size.width * size.height <= 1_000_000)
        #expect(size == PixelSize(width: 1154, height: 866))
        let animated = DecodeGeometry.scaledSize(
            PixelSize(width: 4000, height: 3000), limitBytes: 4_000_000, frameCount: 4)
        #expect(animated == PixelSize(width: 577, height: 433))
        #expect(
            DecodeGeometry.scaledSize(PixelSize(width: 100, height: 100), limitBytes: 1, frameCount: 1)
                == PixelSize(width: 1, height: 1))
    }

    @Test("Target size is nil when no reduction is asked for or possible")
    func targetSizeNeverUpscales() {
        var options = ImageDecodeOptions()
        #expect(
            DecodeGeometry.targetSize(storedSize: portrait, orientation: .up, frameCount: 1, options: options) == nil)
        options.thumbnailPixelSize = PixelSize(width: 1000, height: 1000)
        #expect(
            DecodeGeometry.targetSize(storedSize: portrait, orientation: .up, frameCount: 1, options: options) == nil)
        options.thumbnailPixelSize = PixelSize(width: 50, height: 50)
        #expect(
            DecodeGeometry.targetSize(storedSize: portrait, orientation: .up, frameCount: 1, options: options)
                == PixelSize(width: 25, height: 50))
    }

    @Test("The thumbnail box applies to the upright image; the result is in stored orientation")
    func targetSizeRespectsOrientation() {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 100, height: 25)
        // Stored 100×200, shown (orientation 6) as 200×100: fits 100×25 as 50×25 shown → 25×50 stored.
        #expect(
            DecodeGeometry.targetSize(storedSize: portrait, orientation: .right, frameCount: 1, options: options)
                == PixelSize(width: 25, height: 50))
    }

    @Test("A byte limit overrides the thumbnail size and always keeps the aspect ratio")
    func byteLimitOverridesThumbnail() {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 10, height: 10)
        options.preserveAspectRatio = false
        options.scaleDownLimitBytes = 100 * 200 * 4 / 4
        let target = DecodeGeometry.targetSize(storedSize: portrait, orientation: .up, frameCount: 1, options: options)
        #expect(target == PixelSize(width: 50, height: 100))
    }

    @Test("The pixel limit rejects huge and empty images before allocation")
    func pixelLimit() throws {
        let options = ImageDecodeOptions()
        #expect(throws: WebImageError.imageTooLarge(width: 100_000, height: 100_000, limit: options.maxPixelCount)) {
            try DecodeGeometry.checkPixelLimit(width: 100_000, height: 100_000, options: options)
        }
        #expect(throws: WebImageError.self) {
            try DecodeGeometry.checkPixelLimit(width: 0, height: 10, options: options)
        }
        #expect(throws: WebImageError.self) {
            try DecodeGeometry.checkPixelLimit(width: Int.max, height: Int.max, options: options)
        }
        try DecodeGeometry.checkPixelLimit(width: 10_000, height: 10_000, options: options)
    }
}
