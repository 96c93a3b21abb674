import Foundation
import Testing

@testable import WebImage

@Suite("WebP incremental decoding")
struct WebPIncrementalDecodingTests {
    let coder = WebPCoder()

    @Test func growingPrefixesGivePartialImagesThenTheFullOne() throws {
        let data = try Fixtures.data("webp/photo.webp")
        let oneShot = try coder.decode(data, options: ImageDecodeOptions())
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        var partials = 0
        var sawTransparentTail = false
        for end in stride(from: 0, to: data.count, by: 512) {
            decoder.update(data.prefix(end), isFinal: false)
            guard let image = try decoder.currentImage() else { continue }
            #expect(image.isIncremental)
            #expect(image.width == 192 && image.height == 128)
            partials += 1
            if image.bitmap[100, 127].a == 0 { sawTransparentTail = true }
            // Decoded rows already match the final image.
            #expect(isClose(image.bitmap[5, 0], oneShot.bitmap[5, 0], tolerance: 0))
        }
        #expect(partials >= 3)
        #expect(sawTransparentTail)
        decoder.update(data, isFinal: true)
        let final = try #require(try decoder.currentImage())
        #expect(!final.isIncremental)
        #expect(final.bitmap == oneShot.bitmap)
    }

    @Test(arguments: ["lossy.webp", "lossless_alpha.webp", "photo.webp"])
    func smallStepsEndWithTheOneShotImage(name: String) throws {
        let data = try Fixtures.data("webp/\(name)")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        for end in stride(from: 0, to: data.count, by: 16) {
            decoder.update(data.prefix(end), isFinal: false)
            if let partial = try decoder.currentImage() { #expect(partial.isIncremental) }
        }
        decoder.update(data, isFinal: true)
        let final = try #require(try decoder.currentImage())
        #expect(!final.isIncremental)
        #expect(final.bitmap == (try coder.decode(data, options: ImageDecodeOptions())).bitmap)
    }

    @Test func headerOnlyPrefixGivesNoImage() throws {
        let data = try Fixtures.data("webp/photo.webp")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(8), isFinal: false)
        #expect(try decoder.currentImage() == nil)
        decoder.update(data.prefix(40), isFinal: false)
        #expect(try decoder.currentImage() == nil)
    }

    @Test func incrementalThumbnailsUseTheTargetSize() throws {
        let data = try Fixtures.data("webp/photo.webp")
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 96, height: 96)
        let decoder = coder.makeIncrementalDecoder(options: options)
        decoder.update(data.prefix(data.count / 2), isFinal: false)
        let partial = try decoder.currentImage()
        #expect(partial?.width == 96 && partial?.height == 64)
        decoder.update(data, isFinal: true)
        let final = try #require(try decoder.currentImage())
        #expect(final.isThumbnail && !final.isIncremental)
        #expect(final.bitmap == (try coder.decode(data, options: options)).bitmap)
    }

    @Test func animationsDecodeOnlyOnceComplete() throws {
        let data = try Fixtures.data("webp/animated.webp")
        let decoder = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data.prefix(data.count - 20), isFinal: false)
        #expect(try decoder.currentImage() == nil)
        decoder.update(data, isFinal: true)
        let image = try #require(try decoder.currentImage())
        #expect(image.frameCount == 5 && !image.isIncremental)
    }

    @Test func garbageAndOversizedDownloadsThrow() throws {
        let garbage = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        // A complete VP8 chunk whose frame header is garbage.
        let chunk = WebPTestSupport.chunk("VP8 ", [UInt8](repeating: 0xAB, count: 20))
        garbage.update(WebPTestSupport.file(chunk), isFinal: false)
        #expect(throws: WebImageError.self) { try garbage.currentImage() }

        var options = ImageDecodeOptions()
        options.maxPixelCount = 100
        let large = coder.makeIncrementalDecoder(options: options)
        large.update(try Fixtures.data("webp/photo.webp"), isFinal: false)
        #expect(throws: WebImageError.imageTooLarge(width: 192, height: 128, limit: 100)) {
            try large.currentImage()
        }

        let empty = coder.makeIncrementalDecoder(options: ImageDecodeOptions())
        empty.update(Data(), isFinal: true)
        #expect(throws: WebImageError.self) { try empty.currentImage() }
    }

    @Test func managerPicksTheWebPIncrementalDecoder() throws {
        let data = try Fixtures.data("webp/photo.webp")
        #expect(ImageCodersManager.shared.canDecodeIncrementally(data))
        let decoder = ImageCodersManager.shared.makeIncrementalDecoder(options: ImageDecodeOptions())
        decoder.update(data, isFinal: true)
        #expect(try decoder.currentImage()?.width == 192)
    }
}
