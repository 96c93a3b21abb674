import Foundation
import Testing

@testable import WebImage

@Suite("JPEG thumbnail path: DCT scale, then resample")
struct JPEGThumbnailPathTests {
    @Test("A 4000×3000 JPEG asked for 400×300 comes out exactly 400×300, flagged as a thumbnail")
    func largePhotoToThumbnail() throws {
        // Vertical bands (a memset per row keeps this fast in debug builds): red | grey | blue.
        var pixels = [UInt8](repeating: 255, count: 4000 * 3000 * 4)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for x in 0..<4000 {
                let colour: (UInt8, UInt8, UInt8) =
                    x < 1300 ? (220, 30, 20) : (x < 2700 ? (128, 128, 128) : (20, 40, 230))
                buffer[4 * x] = colour.0
                buffer[4 * x + 1] = colour.1
                buffer[4 * x + 2] = colour.2
            }
            let row = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<16000])
            for y in 1..<3000 {
                UnsafeMutableRawPointer(buffer.baseAddress! + y * 16000).copyMemory(
                    from: row.baseAddress!, byteCount: 16000)
            }
        }
        let source = Image(bitmap: try ImageBitmap(width: 4000, height: 3000, pixels: pixels), hasAlpha: false)
        var encodeOptions = ImageEncodeOptions()
        encodeOptions.compressionQuality = 0.8
        let data = try ImageCodersManager.shared.encode(source, as: .jpeg, options: encodeOptions)
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = PixelSize(width: 400, height: 300)
        let image = try ImageCodersManager.shared.decode(data, options: options)
        #expect(image.bitmap.size == PixelSize(width: 400, height: 300))
        #expect(image.isThumbnail)
        #expect(isClose(image.bitmap[50, 150], RGBA8(r: 220, g: 30, b: 20)))
        #expect(isClose(image.bitmap[200, 150], RGBA8(r: 128, g: 128, b: 128)))
        #expect(isClose(image.bitmap[350, 150], RGBA8(r: 20, g: 40, b: 230)))
        // The DCT scale did the bulk of the work: libjpeg decoded 1/8 size (500×375).
        let plan = try data.withUnsafeBytes { bytes in
            try JPEGShim.withDecoder(bytes) { decoder throws(WebImageError) in
                try JPEGCoder.plan(for: decoder.header, orientation: .up, options: options)
            }
        }
        #expect(plan.scaleNumerator == 1 && plan.decodedSize == PixelSize(width: 500, height: 375))
    }
}
