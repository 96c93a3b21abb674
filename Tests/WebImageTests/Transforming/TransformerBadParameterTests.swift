import Testing

@testable import WebImage

@Suite("Transformer bad parameters")
struct TransformerBadParameterTests {
    let image = TransformTestSupport.image(ImageBitmap.noise(width: 10, height: 10))

    private func expectError(
        _ transformer: any ImageTransforming, _ matches: (WebImageError) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectWebImageError(sourceLocation: sourceLocation, matching: matches) {
            try transformer.transformedImage(image, forKey: "k")
        }
    }

    private static func isInvalidArgument(_ error: WebImageError) -> Bool {
        error.code == .invalidArgument
    }

    private static func isTooLarge(_ error: WebImageError) -> Bool {
        error.code == .imageTooLarge
    }

    @Test("Zero and negative resize sizes are invalid arguments", arguments: ImageScaleMode.allCases)
    func nonPositiveSizes(mode: ImageScaleMode) {
        for size in [
            PixelSize(width: 0, height: 10), PixelSize(width: 10, height: 0), PixelSize(width: -5, height: 10),
            PixelSize(width: Int.min, height: Int.min),
        ] {
            expectError(ImageResizingTransformer(size: size, scaleMode: mode), Self.isInvalidArgument)
        }
    }

    @Test("Resize results above the pixel limit are refused before allocating", arguments: ImageScaleMode.allCases)
    func hugeSizes(mode: ImageScaleMode) {
        var sizes = [PixelSize(width: 20_000, height: 20_000), PixelSize(width: Int.max, height: Int.max)]
        // Aspect fit of a square into a flat box is small; the other modes make the whole box.
        if mode != .aspectFit { sizes.append(PixelSize(width: Int.max, height: 2)) }
        for size in sizes {
            expectError(ImageResizingTransformer(size: size, scaleMode: mode), Self.isTooLarge)
        }
    }

    @Test("A huge box around a small result is fine for aspect fit")
    func hugeBoxSmallResult() throws {
        let wide = TransformTestSupport.image(ImageBitmap.noise(width: 10, height: 1))
        let result = try ImageResizingTransformer(size: PixelSize(width: 20, height: Int.max), scaleMode: .aspectFit)
            .transformedImage(wide, forKey: "k")
        #expect(result.bitmap.size == PixelSize(width: 20, height: 2))
    }

    @Test("Cropping a bitmap outside its bounds is an invalid argument")
    func bitmapCropOutside() {
        let bitmap = ImageBitmap.noise(width: 4, height: 4)
        for rect in [
            PixelRect(x: 0, y: 0, width: 5, height: 1), PixelRect(x: -1, y: 0, width: 1, height: 1),
            PixelRect(x: 0, y: 0, width: 0, height: 1), PixelRect(x: Int.max, y: 0, width: 1, height: 1),
        ] {
            #expect(throws: WebImageError.self) { try bitmap.cropped(to: rect) }
        }
    }
}
