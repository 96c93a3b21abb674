import Foundation
import Testing

@testable import WebImage

@Suite("Resizing transformer")
struct ResizingTransformerTests {
    @Test(
        "Output sizes follow SDWebImage's scaledSize table for every mode",
        arguments: [
            // source, target, fill, aspect-fit, aspect-fill
            (100, 200, 150, 150, 75),  // tall into square: fit 75×150
            (400, 100, 200, 200, 200),  // wide into square: fit 200×50
            (10, 20, 300, 100, 50),  // upscale: fit 50×100
        ])
    func outputSizes(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int, fitWidth: Int)
        throws
    {
        let source = TransformTestSupport.image(ImageBitmap.noise(width: sourceWidth, height: sourceHeight))
        let target = PixelSize(width: targetWidth, height: targetHeight)
        let fitted = PixelSize(width: fitWidth, height: fitWidth * sourceHeight / sourceWidth)
        let expected: [ImageScaleMode: PixelSize] = [.fill: target, .aspectFit: fitted, .aspectFill: target]
        for (mode, size) in expected {
            let result = try ImageResizingTransformer(size: target, scaleMode: mode).transformedImage(
                source, forKey: "k")
            #expect(result.bitmap.size == size, "\(mode)")
            #expect(result.isTransformed)
            #expect(result.format == .png)
            #expect(result.scale == 2)
        }
    }

    @Test("The table's own example: 100×200 into 150×150")
    func sdWebImageExample() throws {
        let transformer = { (mode: ImageScaleMode) in
            ImageResizingTransformer(size: PixelSize(width: 150, height: 150), scaleMode: mode)
        }
        let source = PixelSize(width: 100, height: 200)
        #expect(try transformer(.fill).outputSize(forSourceSize: source) == PixelSize(width: 150, height: 150))
        #expect(try transformer(.aspectFit).outputSize(forSourceSize: source) == PixelSize(width: 75, height: 150))
        #expect(try transformer(.aspectFill).outputSize(forSourceSize: source) == PixelSize(width: 150, height: 150))
    }

    @Test(
        "Resized pixels match a direct 2-D Lanczos-3 reference",
        arguments: [(23, 17, 9, 7, true), (23, 17, 9, 7, false), (7, 5, 16, 11, true), (12, 12, 4, 6, false)])
    func matchesReference(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, opaque: Bool) throws {
        let bitmap = ImageBitmap.noise(
            width: sourceWidth, height: sourceHeight, seed: 3, alpha: opaque ? .opaque : .random)
        let size = PixelSize(width: width, height: height)
        let result = try ImageResizingTransformer(size: size, scaleMode: .fill)
            .transformedImage(TransformTestSupport.image(bitmap), forKey: "k")
        // Colour of nearly transparent pixels is ill-defined (divided by a tiny alpha).
        let worst = PixelMetrics.maxVisibleDifference(
            result.bitmap, referenceLanczos3(bitmap, to: size), minimumAlpha: 16)
        #expect(worst <= 2, "largest channel difference \(worst)")
    }

    @Test("An opaque red square on transparency has no dark fringe after resizing", arguments: ImageScaleMode.allCases)
    func noDarkFringes(mode: ImageScaleMode) throws {
        // Transparent *black* around the square: straight-alpha filtering would pull edges dark.
        var bitmap = ImageBitmap(width: 64, height: 48, fill: .clear)
        for y in 12..<36 { for x in 16..<48 { bitmap[x, y] = RGBA8(r: 255, g: 0, b: 0) } }
        for target in [PixelSize(width: 21, height: 17), PixelSize(width: 150, height: 90)] {
            let result = try ImageResizingTransformer(size: target, scaleMode: mode)
                .transformedImage(TransformTestSupport.image(bitmap), forKey: "k")
            var partial = 0
            for y in 0..<result.height {
                for x in 0..<result.width {
                    let pixel = result.bitmap[x, y]
                    guard pixel.a > 0 else { continue }
                    if pixel.a < 255 { partial += 1 }
                    #expect(pixel.r >= 250 && pixel.g <= 5 && pixel.b <= 5, "\(x),\(y): \(pixel) at \(target)")
                }
            }
            #expect(partial > 0, "edges should be soft at \(target)")
        }
    }

    @Test("Aspect fill shows the centre of the source")
    func aspectFillCropsCentre() throws {
        // Three vertical bands; a square aspect-fill of the 3:1 image keeps only the middle one.
        var bitmap = ImageBitmap(width: 30, height: 10, fill: .clear)
        for y in 0..<10 {
            for x in 0..<30 {
                bitmap[x, y] = x < 10 ? RGBA8(r: 255, g: 0, b: 0) : (x < 20 ? .white : RGBA8(r: 0, g: 0, b: 255))
            }
        }
        let result = try ImageResizingTransformer(size: PixelSize(width: 5, height: 5), scaleMode: .aspectFill)
            .transformedImage(TransformTestSupport.image(bitmap), forKey: "k")
        for y in 0..<5 { for x in 0..<5 { #expect(result.bitmap[x, y] == .white) } }
    }

    @Test("The decode hint is the smallest aspect-preserving size covering what each mode needs")
    func decodeHint() throws {
        let source = PixelSize(width: 4000, height: 3000)
        let box = PixelSize(width: 400, height: 400)
        let fit = ImageResizingTransformer(size: box, scaleMode: .aspectFit).decodePixelSize(forSourceSize: source)
        let fill = ImageResizingTransformer(size: box, scaleMode: .aspectFill).decodePixelSize(forSourceSize: source)
        let stretch = ImageResizingTransformer(size: box, scaleMode: .fill).decodePixelSize(forSourceSize: source)
        #expect(fit == PixelSize(width: 400, height: 300))
        #expect(fill == PixelSize(width: 534, height: 400))
        #expect(stretch == PixelSize(width: 534, height: 400))
        // Upscaling needs the full size.
        #expect(
            ImageResizingTransformer(size: PixelSize(width: 5000, height: 10), scaleMode: .fill)
                .decodePixelSize(forSourceSize: source) == nil)
        // A decoder fitting the hint as a thumbnail box gets at least the needed size on both axes.
        let needs = [(fit, PixelSize(width: 400, height: 300)), (fill, box), (stretch, box)]
        for (hint, needed) in needs {
            let hint = try #require(hint)
            let decoded = DecodeGeometry.scaledSize(
                source, fitting: hint, preserveAspectRatio: true, shouldScaleUp: false)
            #expect(decoded.width >= needed.width && decoded.height >= needed.height, "\(decoded) for \(needed)")
            #expect(decoded.width <= hint.width + 1 && decoded.height <= hint.height + 1)
        }
    }

    @Test("A resize of a big JPEG decodes at a reduced size first, then gives the exact size")
    func thumbnailFirstDecode() throws {
        let data = try Fixtures.data("jpeg/photo_800x600.jpg")
        let transformer = ImageResizingTransformer(size: PixelSize(width: 100, height: 100), scaleMode: .aspectFill)
        let hint = try #require(transformer.decodePixelSize(forSourceSize: PixelSize(width: 800, height: 600)))
        var options = ImageDecodeOptions()
        options.thumbnailPixelSize = hint
        let decoded = try ImageCodersManager.shared.decode(data, options: options)
        #expect(decoded.isThumbnail)
        #expect(decoded.width < 800 && decoded.width >= 100 && decoded.height >= 100)
        let result = try transformer.transformedImage(decoded, forKey: "k")
        #expect(result.bitmap.size == PixelSize(width: 100, height: 100))
        // The same as resizing the full decode, up to resampling twice.
        let full = try transformer.transformedImage(
            ImageCodersManager.shared.decode(data, options: ImageDecodeOptions()), forKey: "k")
        let meanDifference =
            zip(result.bitmap.pixels, full.bitmap.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            / result.bitmap.pixels.count
        #expect(meanDifference <= 4)
    }
}
