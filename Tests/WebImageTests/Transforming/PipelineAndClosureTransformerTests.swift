import Testing

@testable import WebImage

@Suite("Pipeline and closure transformers")
struct PipelineAndClosureTransformerTests {
    let source = ImageBitmap.noise(width: 12, height: 8)

    @Test("A pipeline applies its steps in order")
    func appliesInOrder() throws {
        let crop = ImageCroppingTransformer(x: 0, y: 0, width: 4, height: 2)
        let flip = ImageFlippingTransformer(horizontal: true, vertical: false)
        let image = TransformTestSupport.image(source)
        let cropThenFlip = try ImagePipelineTransformer([crop, flip]).transformedImage(image, forKey: "k")
        let flipThenCrop = try ImagePipelineTransformer([flip, crop]).transformedImage(image, forKey: "k")
        for x in 0..<4 {
            #expect(cropThenFlip.bitmap[x, 0] == source[3 - x, 0])
            #expect(flipThenCrop.bitmap[x, 0] == source[11 - x, 0])
        }
        #expect(try ImagePipelineTransformer([]).transformedImage(image, forKey: "k").bitmap == source)
    }

    @Test("A pipeline copies metadata per step, following each step's own flag")
    func metadataPerStep() throws {
        let image = TransformTestSupport.image(source, format: .webp)
        let keeps = ImageClosureTransformer(key: "keeps") { $0 }
        let drops = ImageClosureTransformer(key: "drops", preservesImageMetadata: false) { input in
            Image(bitmap: input.bitmap, scale: input.scale, format: .undefined)
        }
        let kept = try ImagePipelineTransformer([keeps, ImageFlippingTransformer(horizontal: true, vertical: false)])
            .transformedImage(image, forKey: "k")
        #expect(kept.format == .webp)
        #expect(kept.isTransformed)
        let dropped = try ImagePipelineTransformer([keeps, drops, keeps]).transformedImage(image, forKey: "k")
        #expect(dropped.format == .undefined)
        #expect(dropped.isTransformed)
    }

    @Test("A pipeline's decode hint is its first step's")
    func decodeHint() {
        let resize = ImageResizingTransformer(size: PixelSize(width: 10, height: 10), scaleMode: .aspectFit)
        let source = PixelSize(width: 1000, height: 500)
        let pipeline = ImagePipelineTransformer([resize, ImageFlippingTransformer(horizontal: true, vertical: true)])
        #expect(pipeline.decodePixelSize(forSourceSize: source) == resize.decodePixelSize(forSourceSize: source))
        #expect(pipeline.decodePixelSize(forSourceSize: source) == PixelSize(width: 10, height: 5))
        let cropFirst = ImagePipelineTransformer([ImageCroppingTransformer(x: 0, y: 0, width: 5, height: 5), resize])
        #expect(cropFirst.decodePixelSize(forSourceSize: source) == nil)
    }

    @Test("A closure transformer gets upright pixels and its errors pass through")
    func closure() throws {
        let stored = ImageBitmap.noise(width: 6, height: 3)
        let image = Image(bitmap: stored, orientation: .right, format: .jpeg, hasAlpha: false)
        let seen = try ImageClosureTransformer(key: "size") { input in
            #expect(input.orientation == .up)
            return input
        }.transformedImage(image, forKey: "k")
        #expect(seen.bitmap == stored.applyingOrientation(.right))
        #expect(seen.isTransformed && seen.format == .jpeg)
        #expect(throws: WebImageError.invalidArgument("no")) {
            try ImageClosureTransformer(key: "fails") { _ throws(WebImageError) in throw .invalidArgument("no") }
                .transformedImage(image, forKey: "k")
        }
    }

    @Test("Built-in transformers work on the pixels as shown and return an upright image")
    func orientationIsApplied() throws {
        let stored = ImageBitmap.noise(width: 6, height: 3)
        let upright = stored.applyingOrientation(.left)
        let image = Image(bitmap: stored, orientation: .left, format: .jpeg, hasAlpha: false)
        let cropped = try ImageCroppingTransformer(x: 0, y: 0, width: 3, height: 6).transformedImage(image, forKey: "k")
        #expect(cropped.orientation == .up)
        #expect(cropped.bitmap == upright)
        let flipped = try ImageFlippingTransformer(horizontal: true, vertical: false).transformedImage(
            image, forKey: "")
        #expect(flipped.bitmap == upright.applyingOrientation(.upMirrored))
        let resized = try ImageResizingTransformer(size: PixelSize(width: 30, height: 30), scaleMode: .aspectFit)
            .transformedImage(image, forKey: "")
        #expect(resized.bitmap.size == PixelSize(width: 15, height: 30))
        #expect(resized.orientation == .up)
    }
}
