import Testing

@testable import WebImage

@Suite("Cropping and flipping transformers")
struct CroppingAndFlippingTransformerTests {
    let source = ImageBitmap.noise(width: 13, height: 9)

    @Test("A crop inside the image takes exactly those pixels")
    func exactCrop() throws {
        let result = try ImageCroppingTransformer(rect: PixelRect(x: 3, y: 2, width: 5, height: 4))
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        #expect(result.bitmap.size == PixelSize(width: 5, height: 4))
        for y in 0..<4 { for x in 0..<5 { #expect(result.bitmap[x, y] == source[x + 3, y + 2]) } }
        #expect(result.isTransformed && result.format == .png)
    }

    @Test("A crop overhanging the image is clamped to it")
    func clampedCrop() throws {
        let result = try ImageCroppingTransformer(x: -4, y: 6, width: 10, height: 100)
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        #expect(result.bitmap.size == PixelSize(width: 6, height: 3))
        for y in 0..<3 { for x in 0..<6 { #expect(result.bitmap[x, y] == source[x, y + 6]) } }
    }

    @Test("A fractional crop grows to the whole pixels it touches")
    func fractionalCrop() throws {
        let rect = try ImageCroppingTransformer(x: 1.5, y: 0.25, width: 2, height: 1)
            .pixelRect(in: source.size)
        #expect(rect == PixelRect(x: 1, y: 0, width: 3, height: 2))
    }

    @Test(
        "Empty, non-finite and outside crops are invalid arguments",
        arguments: [
            (0.0, 0.0, 0.0, 5.0), (0, 0, 5, -1), (Double.nan, 0, 5, 5), (0, 0, .infinity, 5),
            (20, 0, 5, 5), (0, -10, 5, 5), (1e300, 1e300, 1e300, 1e300), (-1e300, 0, 5, 5),
        ])
    func badCrops(x: Double, y: Double, width: Double, height: Double) {
        #expect {
            try ImageCroppingTransformer(x: x, y: y, width: width, height: height)
                .transformedImage(TransformTestSupport.image(source), forKey: "k")
        } throws: { error in
            guard (error as? WebImageError)?.code == .invalidArgument else { return false }
            return true
        }
    }

    @Test("Flips are exact mirror permutations")
    func flips() throws {
        let image = TransformTestSupport.image(source)
        let w = source.width
        let h = source.height
        let horizontal = try ImageFlippingTransformer(horizontal: true, vertical: false).transformedImage(
            image, forKey: "")
        let vertical = try ImageFlippingTransformer(horizontal: false, vertical: true).transformedImage(
            image, forKey: "")
        let both = try ImageFlippingTransformer(horizontal: true, vertical: true).transformedImage(image, forKey: "")
        let neither = try ImageFlippingTransformer(horizontal: false, vertical: false).transformedImage(
            image, forKey: "")
        for y in 0..<h {
            for x in 0..<w {
                #expect(horizontal.bitmap[x, y] == source[w - 1 - x, y])
                #expect(vertical.bitmap[x, y] == source[x, h - 1 - y])
                #expect(both.bitmap[x, y] == source[w - 1 - x, h - 1 - y])
            }
        }
        #expect(neither.bitmap == source)
        #expect(neither.isTransformed)
    }
}
