import Testing

@testable import WebImage

@Suite("Round corner transformer")
struct RoundCornerTransformerTests {
    let green = RGBA8(r: 0, g: 200, b: 0)
    let blue = RGBA8(r: 0, g: 0, b: 255)

    @Test("Corners turn transparent with antialiased edges; the centre is untouched")
    func roundsCorners() throws {
        let source = TransformTestSupport.noise(width: 40, height: 30)
        let result = try ImageRoundCornerTransformer(radius: 10)
            .transformedImage(TransformTestSupport.image(source, format: .jpeg, hasAlpha: false), forKey: "k")
        let bitmap = result.bitmap
        for (x, y) in [(0, 0), (39, 0), (0, 29), (39, 29), (1, 1), (2, 1)] {
            #expect(bitmap[x, y].a == 0, "corner pixel \(x),\(y)")
        }
        for y in 10..<20 { for x in 10..<30 { #expect(bitmap[x, y] == source[x, y]) } }
        // Straight edges between the corners stay whole pixels.
        #expect(bitmap[20, 0] == source[20, 0])
        #expect(bitmap[0, 15] == source[0, 15])
        let partial = bitmap.pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element > 0 && $0.element < 255 }
        #expect(partial.count >= 8, "antialiased arcs need partly covered pixels")
        #expect(result.hasAlpha)
        #expect(result.format == .jpeg)
    }

    @Test("Only the chosen corners are rounded")
    func chosenCorners() throws {
        let source = ImageBitmap(width: 20, height: 20, fill: green)
        let result = try ImageRoundCornerTransformer(radius: 6, corners: [.topRight, .bottomLeft])
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        #expect(result.bitmap[19, 0].a == 0)
        #expect(result.bitmap[0, 19].a == 0)
        #expect(result.bitmap[0, 0] == green)
        #expect(result.bitmap[19, 19] == green)
    }

    @Test("A border is drawn in its colour just inside the edge")
    func border() throws {
        let source = ImageBitmap(width: 30, height: 30, fill: green)
        let result = try ImageRoundCornerTransformer(radius: 8, borderWidth: 3, borderColor: blue)
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        for x in 10..<20 {
            #expect(result.bitmap[x, 0] == blue)
            #expect(result.bitmap[x, 2] == blue)
            #expect(result.bitmap[x, 3] == green)
            #expect(result.bitmap[x, 29] == blue)
        }
        #expect(result.bitmap[15, 15] == green)
        #expect(result.bitmap[0, 0].a == 0)
    }

    @Test("A border without a colour leaves a transparent band, as SDWebImage's clip does")
    func borderWithoutColour() throws {
        let source = ImageBitmap(width: 30, height: 30, fill: green)
        let result = try ImageRoundCornerTransformer(radius: 8, borderWidth: 2)
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        #expect(result.bitmap[15, 0].a == 0)
        #expect(result.bitmap[15, 1].a == 0)
        #expect(result.bitmap[15, 2] == green)
    }

    @Test(
        "Bad radii and border widths are invalid arguments",
        arguments: [(0.0, 0.0), (-1, 0), (.nan, 0), (.infinity, 0), (5, -1), (5, .nan), (5, .infinity)])
    func badParameters(radius: Double, borderWidth: Double) {
        #expect {
            try ImageRoundCornerTransformer(radius: radius, borderWidth: borderWidth)
                .transformedImage(
                    TransformTestSupport.image(ImageBitmap(width: 4, height: 4, fill: .white)), forKey: "")
        } throws: { error in
            guard (error as? WebImageError)?.code == .invalidArgument else { return false }
            return true
        }
    }

    @Test("A radius larger than the image is clamped to half its shorter side")
    func hugeRadius() throws {
        let source = ImageBitmap(width: 21, height: 11, fill: green)
        let result = try ImageRoundCornerTransformer(radius: 1e12)
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        #expect(result.bitmap[10, 5] == green)
        #expect(result.bitmap[10, 0] == green)
        #expect(result.bitmap[0, 5].a > 0)
        #expect(result.bitmap[0, 0].a == 0)
    }
}
