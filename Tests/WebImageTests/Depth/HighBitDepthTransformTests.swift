import Foundation
import Testing

@testable import WebImage

@Suite("High bit depth transforms")
struct HighBitDepthTransformTests {
    /// A deep image of the pattern, with its 8-bit bitmap.
    private func image(_ size: PixelSize = PixelSize(width: 7, height: 5), alpha: Bool = true) throws -> Image {
        let deep = try DepthFixtures.pattern(size, alpha: alpha)
        var image = Image(bitmap: deep.reducedToEightBits(), hasAlpha: alpha)
        image.deepBitmap = deep
        return image
    }

    /// The result keeps deep pixels, and its 8-bit bitmap is made from them.
    private func deepResult(_ result: Image) throws -> ImageBitmap16 {
        let deep = try #require(result.deepBitmap)
        #expect(result.bitmap == deep.reducedToEightBits())
        return deep
    }

    @Test("every orientation is the same permutation at 16 bits as at 8")
    func orientationPermutesLikeEightBit() throws {
        let source = try image()
        let deep = try #require(source.deepBitmap)
        for orientation in ImageOrientation.allCases {
            let turned = deep.applyingOrientation(orientation)
            #expect(turned.reducedToEightBits() == source.bitmap.applyingOrientation(orientation), "\(orientation)")
        }
    }

    @Test("crop, flip and quarter turns keep the deep pixels exactly")
    func exactPermutationsKeepDeepPixels() throws {
        let source = try image()
        let deep = try #require(source.deepBitmap)
        let cropped = try deepResult(
            ImageCroppingTransformer(x: 2, y: 1, width: 3, height: 2).transformedImage(source, forKey: ""))
        #expect(cropped[0, 0] == deep[2, 1] && cropped[2, 1] == deep[4, 2])
        let flipped = try deepResult(
            ImageFlippingTransformer(horizontal: true, vertical: false).transformedImage(source, forKey: ""))
        #expect(flipped[0, 0] == deep[6, 0])
        let turned = try deepResult(ImageRotationTransformer(angle: .pi / 2).transformedImage(source, forKey: ""))
        #expect(turned.size == PixelSize(width: 5, height: 7) && turned == deep.applyingOrientation(.left))
        let kept = try deepResult(
            ImageRotationTransformer(angle: .pi / 2, fitSize: false).transformedImage(source, forKey: ""))
        #expect(kept.size == deep.size && kept[0, 0]?.a == 0)
    }

    @Test("an image stored turned is transformed as shown")
    func storedOrientationIsApplied() throws {
        var source = try image()
        source.orientation = .right
        let result = try deepResult(
            ImageFlippingTransformer(horizontal: false, vertical: false).transformedImage(source, forKey: ""))
        #expect(result == source.deepBitmap?.applyingOrientation(.right))
    }

    @Test("resizing works at 16 bits: a flat colour stays exact, sizes follow the mode")
    func resizeAtSixteenBits() throws {
        let flat = try ImageBitmap16(
            size: PixelSize(width: 9, height: 6), fill: RGBA16(r: 12345, g: 54321, b: 257, a: 40000))
        var source = Image(bitmap: flat.reducedToEightBits())
        source.deepBitmap = flat
        for mode in ImageScaleMode.allCases {
            let resized = try deepResult(
                ImageResizingTransformer(size: PixelSize(width: 4, height: 4), scaleMode: mode).transformedImage(
                    source, forKey: ""))
            let expected = mode == .aspectFit ? PixelSize(width: 4, height: 3) : PixelSize(width: 4, height: 4)
            #expect(resized.size == expected, "\(mode)")
            #expect(
                Set(
                    stride(from: 0, to: resized.pixels.count, by: 4).map {
                        resized[$0 / 4 % resized.width, $0 / 4 / resized.width]
                    }) == [RGBA16(r: 12345, g: 54321, b: 257, a: 40000)], "\(mode)")
        }
    }

    @Test("resizing a 16-bit ramp stays within one 8-bit level of the 8-bit resampler")
    func resizeAgreesWithEightBit() throws {
        let smooth = try ImageBitmap16(
            width: 40, height: 30,
            pixels: (0..<(40 * 30)).flatMap { i -> [UInt16] in
                let x = i % 40
                let y = i / 40
                return [UInt16(x * 1600), UInt16(y * 2100), UInt16((x + y) * 900), 65535]
            })
        let small = try smooth.resampled(to: PixelSize(width: 13, height: 11))
        let eight = try smooth.reducedToEightBits().resampled(to: PixelSize(width: 13, height: 11))
        #expect(zip(small.reducedToEightBits().pixels, eight.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test("transformers that work on 8 bits drop the deep pixels, and so does setting the bitmap")
    func eightBitTransformersDropDeepPixels() throws {
        let source = try image()
        let transformers: [any ImageTransforming] = [
            ImageBlurTransformer(radius: 2), ImageTintTransformer(color: RGBA8(r: 255, g: 0, b: 0, a: 128)),
            ImageRoundCornerTransformer(radius: 2), ImageRotationTransformer(angle: 0.3),
            ImageMonochromeTransformer(),
        ]
        for transformer in transformers {
            let result = try transformer.transformedImage(source, forKey: "")
            #expect(result.deepBitmap == nil, "\(transformer.transformerKey)")
        }
        var changed = source
        changed.bitmap = ImageBitmap(width: 1, height: 1, fill: .white)
        #expect(changed.deepBitmap == nil)
        let pipeline = ImagePipelineTransformer([
            ImageCroppingTransformer(x: 0, y: 0, width: 4, height: 4),
            ImageResizingTransformer(size: PixelSize(width: 2, height: 2)),
        ])
        #expect(try pipeline.transformedImage(source, forKey: "").deepBitmap?.size == PixelSize(width: 2, height: 2))
    }

    @Test("placing on a canvas copies the deep pixels and clips what overhangs")
    func placedOnCanvas() throws {
        let deep = try DepthFixtures.pattern(PixelSize(width: 3, height: 2), alpha: false)
        let placed = try deep.placed(on: PixelSize(width: 5, height: 4), x: 1, y: 2)
        #expect(
            placed[1, 2] == deep[0, 0] && placed[3, 3] == deep[2, 1] && placed[0, 0] == RGBA16(r: 0, g: 0, b: 0, a: 0))
        let clipped = try deep.placed(on: PixelSize(width: 2, height: 2), x: -1, y: -1)
        #expect(clipped[0, 0] == deep[1, 1] && clipped[1, 1]?.a == 0)
        let outside = try deep.placed(on: PixelSize(width: 2, height: 2), x: 50, y: -50)
        #expect(!outside.pixels.contains { $0 != 0 })
        #expect(throws: WebImageError.self) { try deep.placed(on: PixelSize(width: 0, height: 2), x: 0, y: 0) }
        #expect(throws: WebImageError.self) { try deep.cropped(to: PixelRect(x: 2, y: 0, width: 2, height: 1)) }
    }

    #if ColorManagement
        @Test("an ICC profile converts the deep pixels to sRGB at 16 bits")
        func colourConversionAtSixteenBits() throws {
            let profile = try Fixtures.data("color/adobe-rgb.icc")
            let deep = try DepthFixtures.pattern(PixelSize(width: 8, height: 4), alpha: true)
            var image = Image(bitmap: deep.reducedToEightBits(), format: .png)
            image.deepBitmap = deep
            image.metadata.iccProfile = profile
            let converted = ColorManagement.finish(image, options: ImageDecodeOptions())
            let result = try deepResult(converted)
            #expect(converted.metadata.iccProfile == nil)
            #expect(result != deep)
            // Alpha untouched; the 8-bit conversion agrees within a few levels (it starts from
            // values rounded to 8 bits, and the sRGB curve's slope of 12.92 in the darks magnifies that).
            #expect(stride(from: 3, to: deep.pixels.count, by: 4).allSatisfy { result.pixels[$0] == deep.pixels[$0] })
            var eight = Image(bitmap: deep.reducedToEightBits(), format: .png)
            eight.metadata.iccProfile = profile
            let eightConverted = ColorManagement.finish(eight, options: ImageDecodeOptions())
            let worst = zip(eightConverted.bitmap.pixels, converted.bitmap.pixels).map { abs(Int($0) - Int($1)) }.max()
            #expect(worst ?? 0 <= 4, "\(worst ?? 0)")
            // A gray profile keeps gray pixels gray.
            let grayProfile = try Fixtures.data("color/gray-gamma18.icc")
            let gray = try ImageBitmap16(
                size: PixelSize(width: 2, height: 1), fill: RGBA16(r: 30000, g: 30000, b: 30000))
            var grayImage = Image(bitmap: gray.reducedToEightBits())
            grayImage.deepBitmap = gray
            grayImage.metadata.iccProfile = grayProfile
            let grayResult = try deepResult(ColorManagement.finish(grayImage, options: ImageDecodeOptions()))
            let pixel = try #require(grayResult[1, 0])
            #expect(pixel.r == pixel.g && pixel.g == pixel.b && pixel.r != 30000 && pixel.a == 65535)
        }
    #endif
}
