import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's detail options on the processed pixels: blur areas, progressive blur, unsharp
/// masking and the resizing algorithm.
@Suite("Service processing: detail filters")
struct ColourFilterDetailTests {
    static let noise = ImageBitmap.noise(width: 40, height: 20, seed: 21)

    static func process(_ bitmap: ImageBitmap, _ segments: String...) throws -> ImageBitmap {
        let image = Image(bitmap: bitmap, hasAlpha: false)
        let options = try ProcessingOptions(segments: segments)
        let plan = try ProcessingPlan(source: image.orientedSize, options: options)
        return try ImageProcessor(options: options, plan: plan).transformedImage(image, forKey: "").bitmap
    }

    /// Whether `a` and `b` are equal inside `rect` (`inside`) or everywhere outside it.
    static func equal(_ a: ImageBitmap, _ b: ImageBitmap, inside: Bool, of rect: PixelRect) -> Bool {
        (0..<a.height).allSatisfy { y in
            (0..<a.width).allSatisfy { x in
                let within = x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height
                return within != inside || a[x, y] == b[x, y]
            }
        }
    }

    @Test func blurAreasBlursOnlyInsideTheArea() throws {
        let result = try Self.process(Self.noise, "ba:2:0.25:0.25:0.5:0.5")
        let area = PixelRect(x: 10, y: 5, width: 20, height: 10)
        #expect(result.size == Self.noise.size)
        #expect(Self.equal(result, Self.noise, inside: false, of: area))
        let inside = try result.cropped(to: area)
        let blurred = try ImageBlurTransformer(radius: 2).transformedImage(Image(bitmap: Self.noise), forKey: "")
        // The area holds the whole image's blur there (± 1 level).
        #expect(PixelMetrics.maxChannelDifference(inside, try blurred.bitmap.cropped(to: area)) <= 1)
        #expect(
            ColourStatistics.lumaStandardDeviation(inside)
                < 0.7 * ColourStatistics.lumaStandardDeviation(try Self.noise.cropped(to: area)))
    }

    @Test func blurAreasTurnWithRotateAndFlip() throws {
        // The source's left half: after rot:90 the top half, after fl:1 the right half.
        let turned = try Self.process(Self.noise, "rot:90", "ba:2:0:0:0.5:1")
        let reference = try Self.process(Self.noise, "rot:90")
        #expect(turned.size == PixelSize(width: 20, height: 40))
        #expect(Self.equal(turned, reference, inside: false, of: PixelRect(x: 0, y: 0, width: 20, height: 20)))
        #expect(turned[10, 10] != reference[10, 10] || turned[5, 5] != reference[5, 5])
        let flipped = try Self.process(Self.noise, "fl:1", "ba:2:0:0:0.5:1")
        let mirror = try Self.process(Self.noise, "fl:1")
        #expect(Self.equal(flipped, mirror, inside: false, of: PixelRect(x: 20, y: 0, width: 20, height: 20)))
        #expect(!Self.equal(flipped, mirror, inside: true, of: PixelRect(x: 20, y: 0, width: 20, height: 20)))
    }

    @Test func blurAreasFollowTheCropAndTheScale() throws {
        let source = ImageBitmap.noise(width: 80, height: 80, seed: 4)
        // The crop is the source's top-left 40×40, scaled by ½ to 20×20: an area of a quarter of
        // the source's side (20 pixels) is 10×10 of the result, one of an eighth 5×5.
        let options = ["c:40:40:nowe", "rs:fit:20:20"]
        let reference = try Self.process(source, options[0], options[1])
        let quarter = try Self.process(source, options[0], options[1], "ba:1:0:0:0.25:0.25")
        #expect(quarter.size == PixelSize(width: 20, height: 20))
        #expect(Self.equal(quarter, reference, inside: false, of: PixelRect(x: 0, y: 0, width: 10, height: 10)))
        #expect(!Self.equal(quarter, reference, inside: true, of: PixelRect(x: 0, y: 0, width: 10, height: 10)))
        let eighth = try Self.process(source, options[0], options[1], "ba:1:0.125:0.125:0.125:0.125")
        #expect(Self.equal(eighth, reference, inside: false, of: PixelRect(x: 5, y: 5, width: 5, height: 5)))
        #expect(!Self.equal(eighth, reference, inside: true, of: PixelRect(x: 5, y: 5, width: 5, height: 5)))
        // An area the crop cut away changes nothing.
        let away = try Self.process(source, options[0], options[1], "ba:3:0.6:0.6:0.4:0.4")
        #expect(away == reference)
    }

    @Test func progressiveBlurKeepsTheStartEdgeAndBlursTheStopEdge() throws {
        let source = ImageBitmap.noise(width: 30, height: 40, seed: 8)
        let result = try Self.process(source, "pbl:3")
        let blurred = try ImageBlurTransformer(radius: 3).transformedImage(Image(bitmap: source), forKey: "").bitmap
        for x in 0..<30 { #expect(result[x, 0] == source[x, 0]) }
        for x in 0..<30 { #expect(isClose(result[x, 39], blurred[x, 39], tolerance: 1)) }
        let upwards = try Self.process(source, "progressive_blur:3:up")
        for x in 0..<30 {
            #expect(upwards[x, 39] == source[x, 39] && isClose(upwards[x, 0], blurred[x, 0], tolerance: 1))
        }
        let halfway = try Self.process(source, "pbl:3:right:0.5:1")
        #expect(Self.equal(halfway, source, inside: true, of: PixelRect(x: 0, y: 0, width: 15, height: 40)))
    }

    /// A step from 100 to 150 across the middle of a 20×20 image.
    static let step: ImageBitmap = {
        var bitmap = ImageBitmap(width: 20, height: 20, fill: RGBA8(r: 100, g: 100, b: 100))
        for y in 0..<20 { for x in 10..<20 { bitmap[x, y] = RGBA8(r: 150, g: 150, b: 150) } }
        return bitmap
    }()

    @Test func unsharpMaskingAlwaysRaisesEdgeContrastAndLeavesFlatAreas() throws {
        let result = try Self.process(Self.step, "ush:always")
        #expect(result[2, 5].r == 100 && result[17, 5].r == 150)
        // Weight 1, divider 24: the edge pixels move by 3 × 50 / 24 ≈ 6 (± 1).
        #expect(abs(Int(result[9, 5].r) - 94) <= 1 && abs(Int(result[10, 5].r) - 156) <= 1)
        let stronger = try Self.process(Self.step, "unsharp_masking:always:2:12")
        #expect(stronger[9, 5].r < result[9, 5].r)
    }

    @Test func unsharpMaskingAutoAppliesOnlyToDownscaledImagesWithoutSharpen() throws {
        let wide = ImageBitmap.noise(width: 40, height: 40, seed: 2)
        #expect(try Self.process(wide, "ush:auto") == wide)
        let auto = try Self.process(wide, "rs:fit:20:20", "ush:auto")
        let none = try Self.process(wide, "rs:fit:20:20", "ush:none")
        #expect(auto != none)
        #expect(try Self.process(wide, "rs:fit:20:20") == none)
        // With sharpen set, auto stands aside; always applies as well.
        let sharpened = try Self.process(wide, "rs:fit:20:20", "sh:1")
        #expect(try Self.process(wide, "rs:fit:20:20", "sh:1", "ush:auto") == sharpened)
        #expect(try Self.process(wide, "rs:fit:20:20", "sh:1", "ush:always") != sharpened)
    }

    @Test func nearestKeepsExactSourceColoursWhenDownscalingByTwo() throws {
        let result = try Self.process(Self.noise, "rs:fit:20:10", "ra:nearest")
        #expect(result.size == PixelSize(width: 20, height: 10))
        for y in 0..<10 {
            for x in 0..<20 { #expect(result[x, y] == Self.noise[2 * x + 1, 2 * y + 1]) }
        }
    }

    @Test func everyAlgorithmResizesToThePlannedSizeAndKeepsAFlatColour() throws {
        let flat = ImageBitmap(width: 30, height: 18, fill: RGBA8(r: 12, g: 200, b: 99))
        var results: [ImageBitmap] = []
        for algorithm in ProcessingOptions.ResizingAlgorithm.allCases {
            let down = try Self.process(flat, "rs:fit:13:13", "resizing_algorithm:\(algorithm.rawValue)")
            #expect(down == ImageBitmap(width: 13, height: 8, fill: RGBA8(r: 12, g: 200, b: 99)), "\(algorithm)")
            results.append(try Self.process(Self.noise, "rs:fit:17:0", "ra:\(algorithm.rawValue)"))
        }
        // Each kernel gives its own pixels; lanczos3 is the default.
        #expect(Set(results.map(\.pixels)).count == results.count)
        #expect(try Self.process(Self.noise, "rs:fit:17:0") == results.last)
    }
}
