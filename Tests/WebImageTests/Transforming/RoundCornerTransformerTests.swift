import Testing

@testable import WebImage

@Suite("Round corner transformer")
struct RoundCornerTransformerTests {
    let green = RGBA8(r: 0, g: 200, b: 0)
    let blue = RGBA8(r: 0, g: 0, b: 255)

    @Test("Corners turn transparent with antialiased edges; the centre is untouched")
    func roundsCorners() throws {
        let source = ImageBitmap.noise(width: 40, height: 30)
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

    @Test("A border is a stroke centred floor(width) + 0.5 inside the edge, over the image clipped by its width")
    func border() throws {
        let source = ImageBitmap(width: 30, height: 30, fill: green)
        let result = try ImageRoundCornerTransformer(radius: 8, borderWidth: 3, borderColor: blue)
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        // The stroke covers [2, 5] from each edge; the image starts at 3, under the stroke.
        // Columns 12–17: clear of the corners' arcs (the stroke's runs 3.5 + 7.5 px in).
        for x in 12..<18 {
            #expect(result.bitmap[x, 0].a == 0)
            #expect(result.bitmap[x, 1].a == 0)
            for y in [2, 3, 4, 25, 26, 27] { #expect(result.bitmap[x, y] == blue) }
            #expect(result.bitmap[x, 5] == green)
            #expect(result.bitmap[x, 28].a == 0)
        }
        #expect(result.bitmap[15, 15] == green)
        #expect(result.bitmap[0, 0].a == 0)
    }

    static let white = RGBA8(r: 255, g: 255, b: 255)
    static let black = RGBA8(r: 0, g: 0, b: 0)

    /// A 300×300 white image rounded with radius 50 and a black border of `width`.
    static func bordered(_ width: Double) throws -> ImageBitmap {
        try ImageRoundCornerTransformer(radius: 50, borderWidth: width, borderColor: black)
            .transformedImage(
                TransformTestSupport.image(ImageBitmap(width: 300, height: 300, fill: white)), forKey: "k"
            ).bitmap
    }

    /// The pixels `offset` columns in from the left edge, from the right edge, `offset` rows from
    /// the top and from the bottom, all in the middle of their side: they must be equal.
    static func edgePixels(_ bitmap: ImageBitmap, offset: Int) -> [RGBA8] {
        [bitmap[offset, 150], bitmap[299 - offset, 150], bitmap[150, offset], bitmap[150, 299 - offset]]
    }

    @Test(
        "SDWebImage's border geometry, pixel by pixel from the edge (radius 50, black on white)",
        arguments: [
            // Width 0: no stroke, nothing clipped.
            (0.0, [white, white]),
            // SDWebImage's own test: (1, 150) is opaque black, column 0 clear.
            (1.0, [.clear, black, white, white]),
            // Stroke [1.25, 3.75]; image from 2.5.
            (2.5, [.clear, RGBA8(r: 0, g: 0, b: 0, a: 191), black, RGBA8(r: 64, g: 64, b: 64), white]),
            // Stroke [4.5, 12.5]; image from 8.
            (
                8.0,
                [
                    .clear, .clear, .clear, .clear, RGBA8(r: 0, g: 0, b: 0, a: 128), black, black, black, black, black,
                    black, black, RGBA8(r: 128, g: 128, b: 128), white,
                ]
            ),
        ] as [(Double, [RGBA8])])
    func borderGeometry(width: Double, fromTheEdge expected: [RGBA8]) throws {
        let bitmap = try Self.bordered(width)
        for (offset, colour) in expected.enumerated() {
            let pixels = Self.edgePixels(bitmap, offset: offset)
            #expect(pixels == Array(repeating: colour, count: 4), "\(offset) pixels in from each edge")
        }
        #expect(bitmap[150, 150] == Self.white)
        #expect(bitmap[100, 200] == Self.white)
    }

    @Test("Corners: clear outside the arc, the four alike, the stroke opaque where it covers a whole pixel")
    func borderCorners() throws {
        for width in [0.0, 1, 2.5, 8] {
            let bitmap = try Self.bordered(width)
            for (x, y) in [(0, 0), (5, 5), (10, 3), (3, 10)] {
                #expect(bitmap[x, y] == .clear, "width \(width) at \(x),\(y)")
            }
            var asymmetric: [String] = []
            for y in 0..<60 {
                for x in 0..<60 {
                    let corner = bitmap[x, y]
                    let mirrored = [bitmap[299 - x, y], bitmap[x, 299 - y], bitmap[299 - x, 299 - y], bitmap[y, x]]
                    if mirrored.contains(where: { $0 != corner }) { asymmetric.append("\(x),\(y)") }
                }
            }
            #expect(asymmetric.isEmpty, "width \(width): corners differ at \(asymmetric.prefix(5))")
            #expect(bitmap[70, 70] == Self.white)
        }
        // Width 8: the stroke's arc (radius 49.5 about (58, 58)) passes 50.2 px from (22.5, 22.5).
        #expect(try Self.bordered(8)[22, 22] == Self.black)
    }

    @Test("A border as wide as half the shorter side or more leaves nothing, as SDWebImage draws nothing")
    func borderTooWide() throws {
        let source = ImageBitmap(width: 20, height: 30, fill: green)
        for width in [10.0, 12] {
            let result = try ImageRoundCornerTransformer(radius: 4, borderWidth: width, borderColor: blue)
                .transformedImage(TransformTestSupport.image(source), forKey: "k")
            #expect(result.bitmap.pixels.allSatisfy { $0 == 0 })
        }
        let narrower = try ImageRoundCornerTransformer(radius: 4, borderWidth: 9.5, borderColor: blue)
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        #expect(narrower.bitmap[10, 15].a > 0)
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
