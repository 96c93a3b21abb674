import Foundation
import Testing

@testable import WebImage

@Suite("JPEG incremental decoding")
struct JPEGIncrementalTests {
    /// Feeds `data` in `steps` growing prefixes; returns the image after each (last one final).
    static func feed(_ data: Data, steps: Int, options: ImageDecodeOptions = .init()) throws -> [Image?] {
        let decoder = JPEGCoder().makeIncrementalDecoder(options: options)
        return try (1...steps).map { step in
            let length = data.count * step / steps
            decoder.update(data.prefix(length), isFinal: step == steps)
            return try decoder.currentImage()
        }
    }

    @Test func progressiveShowsTheWholePictureBeforeTheEnd() throws {
        let data = try JPEGFixture.data("progressive.jpg")
        let images = try Self.feed(data, steps: 8)
        let partials = images.dropLast().compactMap { $0 }
        #expect(!partials.isEmpty)
        for partial in partials {
            #expect(partial.isIncremental)
            #expect(partial.bitmap.size == PixelSize(width: 320, height: 240))
            // Whole picture at lower quality: every quadrant already has its colour, and opaque.
            #expect(areClose(partial.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 40))
            #expect(!partial.bitmap.containsTransparency)
        }
        let final = try #require(images.last ?? nil)
        #expect(!final.isIncremental)
        #expect(final.bitmap == (try JPEGCoder().decode(data, options: .init())).bitmap)
    }

    @Test func progressivePartialsRefineTowardsTheFinalImage() throws {
        let data = try JPEGFixture.data("progressive.jpg")
        let images = try Self.feed(data, steps: 8)
        let partials = images.dropLast().compactMap { $0 }
        let final = try #require(images.last ?? nil).bitmap
        func distance(_ a: ImageBitmap) -> Double {
            Double(zip(a.pixels, final.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
        }
        let distances = partials.map { distance($0.bitmap) }
        // Several distinct refinements, never getting worse, the first rougher than the last.
        #expect(Set(distances).count >= 3, "\(distances)")
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $0 >= $1 }, "\(distances)")
        #expect(distances.first! > distances.last!, "\(distances)")
    }

    @Test func baselineShowsReceivedRowsAndLeavesTheRestTransparent() throws {
        let data = try JPEGFixture.data("photo_800x600.jpg")
        let decoder = JPEGCoder().makeIncrementalDecoder(options: .init())
        decoder.update(data.prefix(data.count / 2), isFinal: false)
        let partial = try #require(try decoder.currentImage())
        #expect(partial.isIncremental && partial.hasAlpha)
        #expect(partial.bitmap.size == PixelSize(width: 800, height: 600))
        #expect(partial.bitmap[10, 10].a == 255)
        #expect(partial.bitmap[10, 10].r > 150)
        #expect(partial.bitmap[400, 599] == .clear)
        decoder.update(data, isFinal: true)
        let final = try #require(try decoder.currentImage())
        #expect(!final.isIncremental && !final.hasAlpha && !final.bitmap.containsTransparency)
    }

    @Test(arguments: [0.2, 0.45, 0.8])
    func partialBaselineRowsAreOpaqueAboveAndClearBelowOneBoundary(fraction: Double) throws {
        let data = try JPEGFixture.data("photo_800x600.jpg")
        let decoder = JPEGCoder().makeIncrementalDecoder(options: .init())
        decoder.update(data.prefix(Int(clamping: Double(data.count) * fraction)), isFinal: false)
        let bitmap = try #require(try decoder.currentImage()).bitmap
        let rowAlphas = (0..<bitmap.height).map { y in Set((0..<bitmap.width).map { bitmap[$0, y].a }) }
        let boundary = try #require(rowAlphas.firstIndex(of: [0]))
        #expect(boundary > 0)
        #expect(rowAlphas[..<boundary].allSatisfy { $0 == [255] })
        #expect(rowAlphas[boundary...].allSatisfy { $0 == [0] })
        // The rows shown were decoded from complete data: they equal the finished image's rows.
        let full = try JPEGCoder().decode(data, options: .init()).bitmap
        let shownBytes = boundary * bitmap.bytesPerRow
        #expect(bitmap.pixels[..<shownBytes] == full.pixels[..<shownBytes])
    }

    @Test func aFailedFinalDecodeIsRememberedNotRepeated() throws {
        let data = try JPEGFixture.data("baseline.jpg")
        let decoder = JPEGCoder().makeIncrementalDecoder(options: .init())
        decoder.update(data.prefix(data.count - 100), isFinal: true)
        let first = webImageError { _ = try decoder.currentImage() }
        #expect(first?.isBadImageData == true)
        #expect(webImageError { _ = try decoder.currentImage() } == first)
        decoder.update(data, isFinal: true)
        #expect(try decoder.currentImage()?.isIncremental == false)
    }

    @Test func aHeaderSplitAcrossUpdatesWaitsForTheRest() throws {
        let data = try JPEGFixture.data("baseline.jpg")
        let decoder = JPEGCoder().makeIncrementalDecoder(options: .init())
        for length in [1, 2, 20, 100] {
            decoder.update(data.prefix(length), isFinal: false)
            #expect(try decoder.currentImage() == nil, "at \(length) bytes")
        }
        decoder.update(data, isFinal: true)
        let image = try #require(try decoder.currentImage())
        #expect(areClose(image.bitmap.quadrantColours, JPEGFixture.quadrants, tolerance: 6))
    }

    @Test func noNewBytesMeansNoNewDecode() throws {
        let data = try JPEGFixture.data("photo_800x600.jpg")
        let decoder = JPEGCoder().makeIncrementalDecoder(options: .init())
        decoder.update(data.prefix(data.count / 3), isFinal: false)
        let first = try #require(try decoder.currentImage())
        let again = try #require(try decoder.currentImage())
        // The same storage, not an equal copy: nothing was decoded the second time.
        let same = sharesStorage(first.bitmap, again.bitmap)
        #expect(same)
    }

    @Test func aProgressiveScanIsShownOnlyWhenComplete() throws {
        let data = try JPEGFixture.data("progressive.jpg")
        let layout = data.withUnsafeBytes { JPEGMarkers.layout(of: $0, throughScans: true) }
        #expect(layout.isProgressive && layout.completeScans == 10 && layout.hasEndOfImage)
        let scanStarts = data.withUnsafeBytes { bytes in
            (0..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
        }
        #expect(scanStarts.count == 10)
        let decoder = JPEGCoder().makeIncrementalDecoder(options: .init())
        // The first scan's header and a little of its data: nothing to show yet.
        decoder.update(data.prefix(scanStarts[0] + 20), isFinal: false)
        #expect(try decoder.currentImage() == nil)
        // Up to the second scan: the first is complete.
        decoder.update(data.prefix(scanStarts[1]), isFinal: false)
        let first = try #require(try decoder.currentImage())
        // Part of the second scan: not shown, so the image is not even re-decoded.
        decoder.update(data.prefix(scanStarts[1] + 40), isFinal: false)
        let second = try #require(try decoder.currentImage())
        let same = sharesStorage(first.bitmap, second.bitmap)
        #expect(same)
    }

    @Test func truncatedFinalDataThrows() throws {
        let data = try JPEGFixture.data("photo_800x600.jpg")
        let decoder = JPEGCoder().makeIncrementalDecoder(options: .init())
        decoder.update(data.prefix(data.count / 2), isFinal: false)
        #expect(try decoder.currentImage() != nil)
        decoder.update(data.prefix(data.count / 2), isFinal: true)
        #expect(webImageError { _ = try decoder.currentImage() }?.isBadImageData == true)
    }

    @Test func aHugeHeaderThrowsImmediately() {
        let decoder = JPEGCoder().makeIncrementalDecoder(options: .init())
        decoder.update(JPEGBadInputTests.handcrafted(width: 65000, height: 65000), isFinal: false)
        #expect(
            webImageError { _ = try decoder.currentImage() }
                == .imageTooLarge(width: 65000, height: 65000, limit: 100_000_000))
    }

    @Test func thumbnailsApplyToPartialImages() throws {
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 80, height: 80)
        let images = try Self.feed(try JPEGFixture.data("progressive.jpg"), steps: 4, options: options)
        for image in images.compactMap({ $0 }) {
            #expect(image.bitmap.size == PixelSize(width: 80, height: 60) && image.isThumbnail)
        }
        #expect(images.last??.isIncremental == false)
    }

    @Test func theManagerPicksTheJPEGDecoder() throws {
        let data = try JPEGFixture.data("progressive.jpg")
        let decoder = ImageCodersManager.shared.makeIncrementalDecoder(options: .init())
        decoder.update(data, isFinal: true)
        #expect(try decoder.currentImage()?.format == .jpeg)
    }
}
