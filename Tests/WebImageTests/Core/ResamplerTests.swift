import Testing

@testable import WebImage

@Suite("Resampling")
struct ResamplerTests {
    @Test(
        "A solid colour stays exactly that colour at any size",
        arguments: [ResamplingFilter.box, .triangle, .lanczos3, .lanczos2, .cubic, .nearest])
    func solidColourIsPreserved(filter: ResamplingFilter) throws {
        let colour = RGBA8(r: 200, g: 100, b: 50, a: 255)
        let source = ImageBitmap(width: 37, height: 23, fill: colour)
        for size in [
            PixelSize(width: 5, height: 3), PixelSize(width: 36, height: 23), PixelSize(width: 80, height: 41),
        ] {
            let out = try source.resampled(to: size, filter: filter)
            #expect(out.size == size)
            #expect(out[0, 0] == colour)
            #expect(out[size.width - 1, size.height - 1] == colour)
            #expect(out[size.width / 2, size.height / 2] == colour)
        }
    }

    @Test("Halving with a box filter averages each 2×2 block")
    func boxHalvingAverages() throws {
        var source = ImageBitmap(width: 4, height: 2, fill: .black)
        source[0, 0] = RGBA8(r: 100, g: 0, b: 0)
        source[1, 1] = RGBA8(r: 200, g: 40, b: 0)
        let out = try source.resampled(to: PixelSize(width: 2, height: 1), filter: .box)
        #expect(out[0, 0] == RGBA8(r: 75, g: 10, b: 0))
        #expect(out[1, 0] == .black)
    }

    @Test(
        "Transparent pixels do not darken opaque neighbours",
        arguments: [ResamplingFilter.box, .triangle, .lanczos3, .lanczos2, .cubic])
    func noDarkFringes(filter: ResamplingFilter) throws {
        // Left half opaque white, right half fully transparent *black*.
        var source = ImageBitmap(width: 16, height: 4, fill: .clear)
        for y in 0..<4 { for x in 0..<8 { source[x, y] = .white } }
        let out = try source.resampled(to: PixelSize(width: 5, height: 2), filter: filter)
        for x in 0..<5 {
            let pixel = out[x, 0]
            if pixel.a > 0 {
                #expect(pixel.r == 255 && pixel.g == 255 && pixel.b == 255, "pixel \(x) is \(pixel)")
            }
        }
        #expect(out[2, 0].a > 0 && out[2, 0].a < 255)
    }

    @Test("Resampling to the same size returns the input unchanged")
    func identity() throws {
        let source = OrientationTests.upright
        #expect(try source.resampled(to: source.size) == source)
    }

    @Test("Non-positive targets are rejected with a typed error")
    func rejectsBadTargets() {
        let source = ImageBitmap(width: 4, height: 4, fill: .white)
        #expect(throws: WebImageError.self) { try source.resampled(to: PixelSize(width: 0, height: 4)) }
        #expect(throws: WebImageError.self) { try source.resampled(to: PixelSize(width: 4, height: -1)) }
    }
}
