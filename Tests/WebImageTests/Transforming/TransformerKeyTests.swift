import Testing

@testable import WebImage

@Suite("Transformer keys")
struct TransformerKeyTests {
    @Test("Every built-in key matches SDWebImage's format")
    func keysMatchSDWebImage() {
        let cases: [(any ImageTransforming, String)] = [
            (
                ImageResizingTransformer(size: PixelSize(width: 100, height: 100), scaleMode: .aspectFit),
                "SDImageResizingTransformer({100.000000,100.000000},1)"
            ),
            (
                ImageResizingTransformer(size: PixelSize(width: 300, height: 150), scaleMode: .fill),
                "SDImageResizingTransformer({300.000000,150.000000},0)"
            ),
            (
                ImageResizingTransformer(size: PixelSize(width: 1, height: 2), scaleMode: .aspectFill),
                "SDImageResizingTransformer({1.000000,2.000000},2)"
            ),
            (
                ImageCroppingTransformer(x: 0, y: 0, width: 10, height: 10),
                "SDImageCroppingTransformer({0.000000,0.000000,10.000000,10.000000})"
            ),
            (
                ImageCroppingTransformer(rect: PixelRect(x: 5, y: 6, width: 7, height: 8)),
                "SDImageCroppingTransformer({5.000000,6.000000,7.000000,8.000000})"
            ),
            (
                ImageRoundCornerTransformer(radius: 5, corners: .allCorners, borderWidth: 1, borderColor: nil),
                "SDImageRoundCornerTransformer(5.000000,18446744073709551615,1.000000,(null))"
            ),
            (
                ImageRoundCornerTransformer(
                    radius: 2.5, corners: [.topLeft, .bottomRight], borderWidth: 0,
                    borderColor: RGBA8(r: 0x12, g: 0xAB, b: 0x00, a: 0x80)),
                "SDImageRoundCornerTransformer(2.500000,9,0.000000,#8012ab00)"
            ),
            (ImageFlippingTransformer(horizontal: true, vertical: false), "SDImageFlippingTransformer(1,0)"),
            (ImageFlippingTransformer(horizontal: false, vertical: true), "SDImageFlippingTransformer(0,1)"),
            (ImageRotationTransformer(angle: Double.pi / 4, fitSize: true), "SDImageRotationTransformer(0.785398,1)"),
            (ImageRotationTransformer(angle: -1, fitSize: false), "SDImageRotationTransformer(-1.000000,0)"),
            (ImageTintTransformer(color: .white), "SDImageTintTransformer(#ffffffff,18)"),
            (
                ImageTintTransformer(color: RGBA8(r: 255, g: 0, b: 0, a: 0x7F), blendMode: .multiply),
                "SDImageTintTransformer(#7fff0000,1)"
            ),
            (ImageTintTransformer(color: .black, blendMode: .sourceAtop), "SDImageTintTransformer(#ff000000,20)"),
            (ImageTintTransformer(color: .black, blendMode: .destinationIn), "SDImageTintTransformer(#ff000000,22)"),
            (ImageTintTransformer(color: .black, blendMode: .normal), "SDImageTintTransformer(#ff000000,0)"),
        ]
        for (transformer, expected) in cases {
            #expect(transformer.transformerKey == expected)
        }
    }

    @Test("A pipeline's key joins its steps' keys with '-', and is empty with no steps")
    func pipelineKey() {
        let pipeline = ImagePipelineTransformer([
            ImageCroppingTransformer(x: 0, y: 0, width: 10, height: 10),
            ImageFlippingTransformer(horizontal: true, vertical: false),
        ])
        #expect(
            pipeline.transformerKey
                == "SDImageCroppingTransformer({0.000000,0.000000,10.000000,10.000000})-SDImageFlippingTransformer(1,0)"
        )
        #expect(ImagePipelineTransformer([]).transformerKey == "")
        #expect(ImagePipelineTransformer([]).preservesImageMetadata == false)
    }

    @Test("A pipeline key goes into a cache key before the path extension")
    func pipelineCacheKey() {
        let pipeline = ImagePipelineTransformer([
            ImageResizingTransformer(size: PixelSize(width: 100, height: 100), scaleMode: .aspectFit),
            ImageFlippingTransformer(horizontal: false, vertical: true),
        ])
        #expect(
            CacheKeys.transformed("http://foo/image.png?a=b#c", transformerKey: pipeline.transformerKey)
                == "http://foo/image-SDImageResizingTransformer({100.000000,100.000000},1)"
                + "-SDImageFlippingTransformer(0,1).png?a=b#c")
        #expect(
            CacheKeys.transformed("image", transformerKey: pipeline.transformerKey)
                == "image-SDImageResizingTransformer({100.000000,100.000000},1)-SDImageFlippingTransformer(0,1)")
    }

    @Test("A closure transformer's key is the one it was given, and its metadata flag too")
    func closureKey() {
        let transformer = ImageClosureTransformer(key: "Mine(1)", preservesImageMetadata: false) { $0 }
        #expect(transformer.transformerKey == "Mine(1)")
        #expect(transformer.preservesImageMetadata == false)
        #expect(ImageResizingTransformer(size: PixelSize(width: 1, height: 1)).preservesImageMetadata)
    }
}
