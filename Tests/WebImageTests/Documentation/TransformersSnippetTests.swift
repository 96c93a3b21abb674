import Foundation
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone

// The code of Sources/WebImage/WebImage.docc/Transformers.md, kept compiling and working.
// Article and test are kept in sync by hand: change one, change the other. The README's
// "Adding a coder or transformer" shows the same GrayscaleTransformer.
@Suite("DocC snippets: Transformers")
struct TransformersSnippetTests {
    @Test("A pipeline decoded at its hint, and its cache key")
    func pipelineSnippet() throws {
        let data = try Fixtures.data("jpeg/photo_800x600.jpg")
        let key = "https://example.com/photo.jpg"

        let thumbnail = ImagePipelineTransformer([
            ImageResizingTransformer(size: PixelSize(width: 200, height: 200), scaleMode: .aspectFill),
            ImageRoundCornerTransformer(radius: 16),
        ])
        var options = ImageDecodeOptions()  // decode only as large as the resize needs (JPEG shrinks in the DCT)
        if let hint = thumbnail.decodePixelSize(forSourceSize: PixelSize(width: 800, height: 600)) {
            options.thumbnailPixelSize = hint
        }
        let image = try thumbnail.transformedImage(
            ImageCodersManager.shared.decode(data, options: options), forKey: key)
        let cacheKey = CacheKeys.transformed(key, transformerKey: thumbnail.transformerKey)

        #expect(image.width == 200 && image.height == 200 && image.isTransformed)
        #expect(image.bitmap.pixels[3] == 0, "the rounded corner is transparent")
        #expect(cacheKey.hasPrefix("https://example.com/photo-SDImageResizingTransformer({200.000000,200.000000},2)-"))
    }

    @Test("A transformer of one's own: grayscale keeps alpha and marks the image transformed")
    func customTransformerSnippet() throws {
        let source = Image(bitmap: ImageBitmap(width: 2, height: 1, fill: RGBA8(r: 255, g: 0, b: 0, a: 128)))
        let gray = try GrayscaleTransformer().transformedImage(source, forKey: "red")
        // (77 × 255) >> 8 = 76 for pure red.
        #expect(gray.bitmap.pixels == [76, 76, 76, 128, 76, 76, 76, 128])
        #expect(gray.isTransformed && !source.isTransformed)
        #expect(source.bitmap.pixels[0] == 255, "the source is a value and stays red")
    }
}

struct GrayscaleTransformer: ImageTransforming {
    var transformerKey: String { "GrayscaleTransformer" }

    func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        var output = image
        output.isTransformed = true
        output.bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in stride(from: 0, to: pixels.count, by: 4) {  // RGBA, alpha untouched
                let luma = (77 * Int(pixels[index]) + 150 * Int(pixels[index + 1]) + 29 * Int(pixels[index + 2])) >> 8
                (pixels[index], pixels[index + 1], pixels[index + 2]) = (UInt8(luma), UInt8(luma), UInt8(luma))
            }
        }
        return output
    }
}
