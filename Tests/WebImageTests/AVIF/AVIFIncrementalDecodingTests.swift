#if AVIF
    import Foundation
    import Testing

    @testable import WebImage

    /// AVIF while it downloads: a grid image shows its rows of tiles as they are decoded; a
    /// single-tile still only once its data is complete; the final data decodes one shot.
    @Suite("AVIF incremental decoding")
    struct AVIFIncrementalDecodingTests {
        typealias S = AVIFTestSupport
        let coder = AVIFCoder()

        /// How many rows from the top hold some opaque pixel (the decoded ones).
        static func filledRows(_ bitmap: ImageBitmap) -> Int {
            (0..<bitmap.height).last { y in (0..<bitmap.width).contains { bitmap[$0, y].a != 0 } }.map { $0 + 1 } ?? 0
        }

        @Test func prefixesBeforeTheHeaderGiveNoImage() throws {
            let data = try S.data("grid")
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            // ftyp and meta end near byte 880 (10 %); the first row of tiles near byte 3500.
            for end in [0, 4, 12, 32, 200, 600, data.count / 10, data.count / 4] {
                decoder.update(data.prefix(end), isFinal: false)
                #expect(try decoder.currentImage() == nil, "\(end) bytes")
            }
        }

        @Test func gridTilesShowRowByRowAndMatchTheFinalImage() throws {
            let data = try S.data("grid")
            let oneShot = try S.decode(data)
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            var rowCounts: [Int] = []
            for end in stride(from: 0, to: data.count, by: 256) {
                decoder.update(data.prefix(end), isFinal: false)
                guard let image = try decoder.currentImage() else { continue }
                #expect(image.isIncremental && image.width == 192 && image.height == 192)
                let rows = Self.filledRows(image.bitmap)
                if rowCounts.last != rows { rowCounts.append(rows) }
                // The decoded rows are the final image's, exactly; the rest is transparent.
                let differing = (0..<rows).filter { y in
                    (0..<192).contains { image.bitmap[$0, y] != oneShot.bitmap[$0, y] }
                }
                #expect(differing.isEmpty, "rows \(differing) differ at \(end) bytes")
                #expect(image.bitmap.pixels[(rows * 192 * 4)...].allSatisfy { $0 == 0 }, "\(end) bytes")
                #expect(image.hasAlpha)
            }
            // Two rows of 64-pixel tiles before the last one completes the picture; the last row of
            // each waits for the chroma of the tiles below it (4:2:0).
            #expect(rowCounts == [63, 127])
            decoder.update(data, isFinal: true)
            let final = try #require(try decoder.currentImage())
            #expect(!final.isIncremental && !final.hasAlpha)
            #expect(final.bitmap == oneShot.bitmap)
        }

        @Test func aSingleTileStillShowsNothingUntilItsDataIsComplete() throws {
            let data = try S.data("photo")
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            for fraction in [0.1, 0.25, 0.5, 0.99] {
                decoder.update(data.prefix(Int(clamping: Double(data.count) * fraction)), isFinal: false)
                #expect(try decoder.currentImage() == nil, "\(fraction)")
            }
            decoder.update(data, isFinal: false)
            let whole = try #require(try decoder.currentImage())
            #expect(whole.isIncremental)
            #expect(whole.bitmap == (try S.decode(data)).bitmap)
            decoder.update(data, isFinal: true)
            #expect(try decoder.currentImage()?.isIncremental == false)
        }

        @Test func thumbnailsAndOrientationApplyToPartialImages() throws {
            var options = ImageDecodeOptions()
            options.thumbnailPixelSize = PixelSize(width: 96, height: 96)
            let grid = try S.data("grid")
            let decoder = coder.makeIncrementalDecoder(options: options)
            decoder.update(grid.prefix(grid.count * 3 / 4), isFinal: false)
            let thumbnail = try #require(try decoder.currentImage())
            #expect(thumbnail.width == 96 && thumbnail.height == 96 && thumbnail.isThumbnail && thumbnail.isIncremental)

            let rotated = try S.data("rotated")
            let upright = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            upright.update(rotated, isFinal: false)
            let image = try #require(try upright.currentImage())
            #expect(image.width == 32 && image.height == 48 && image.orientation == .up)
            #expect(image.bitmap == (try S.decode(rotated)).bitmap)
        }

        @Test func sequencesShowNothingUntilTheDataIsFinal() throws {
            let data = try S.data("animated")
            let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            decoder.update(data, isFinal: false)
            #expect(try decoder.currentImage() == nil)
            decoder.update(data, isFinal: true)
            #expect(try decoder.currentImage()?.frameCount == 4)
        }

        @Test func thePixelLimitRefusesTheHeaderBeforeAnyTileIsDecoded() throws {
            var options = ImageDecodeOptions()
            options.maxPixelCount = 10_000
            let decoder = coder.makeIncrementalDecoder(options: options)
            let data = try S.data("grid")
            decoder.update(data.prefix(1000), isFinal: false)
            #expect(throws: WebImageError.imageTooLarge(width: 192, height: 192, limit: 10_000)) {
                try decoder.currentImage()
            }
            // A header claiming 16000 x 16000 pixels is refused the same way, from the header alone.
            let huge = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
            huge.update(try claimingSize(width: 16_000, height: 16_000, in: S.data("still")), isFinal: false)
            #expect {
                _ = try huge.currentImage()
            } throws: { error in
                (error as? WebImageError)?.code == .imageTooLarge
            }
        }

    }
#endif
