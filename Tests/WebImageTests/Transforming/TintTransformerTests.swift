import Testing

@testable import WebImage

@Suite("Tint transformer")
struct TintTransformerTests {
    /// Opaque, translucent and fully transparent pixels side by side.
    let source: ImageBitmap = {
        var bitmap = ImageBitmap(width: 3, height: 1, fill: .clear)
        bitmap[0, 0] = RGBA8(r: 200, g: 100, b: 50, a: 255)
        bitmap[1, 0] = RGBA8(r: 200, g: 100, b: 50, a: 128)
        bitmap[2, 0] = RGBA8(r: 9, g: 9, b: 9, a: 0)
        return bitmap
    }()

    private func tint(_ color: RGBA8, _ mode: ImageBlendMode) throws -> ImageBitmap {
        try ImageTintTransformer(color: color, blendMode: mode)
            .transformedImage(TransformTestSupport.image(source), forKey: "k").bitmap
    }

    @Test("Source-in paints the colour and keeps each pixel's alpha; clear stays clear")
    func sourceIn() throws {
        let blue = RGBA8(r: 0, g: 0, b: 255)
        let result = try tint(blue, .sourceIn)
        #expect(result[0, 0] == blue)
        #expect(result[1, 0] == RGBA8(r: 0, g: 0, b: 255, a: 128))
        #expect(result[2, 0].a == 0)
        // A translucent colour multiplies the alpha.
        let halfBlue = try tint(RGBA8(r: 0, g: 0, b: 255, a: 128), .sourceIn)
        #expect(halfBlue[0, 0] == RGBA8(r: 0, g: 0, b: 255, a: 128))
        #expect(halfBlue[1, 0].a == 64)
    }

    @Test("Source-atop blends over the image and keeps its alpha")
    func sourceAtop() throws {
        let result = try tint(RGBA8(r: 0, g: 0, b: 255, a: 128), .sourceAtop)
        // co = cs·αb + cb·(1−αs): 200·(1−128/255) ≈ 100, 100·… ≈ 50, 50·… + 255·128/255 ≈ 153.
        #expect(result[0, 0] == RGBA8(r: 100, g: 50, b: 153, a: 255))
        #expect(result[1, 0].a == 128)
        #expect(result[2, 0].a == 0)
    }

    @Test("Multiply follows the compositing formula on a known pixel")
    func multiply() throws {
        let colour = RGBA8(r: 255, g: 128, b: 0, a: 255)
        let result = try tint(colour, .multiply)
        // Opaque over opaque: Cs·Cb. 200·1, 100·128/255 ≈ 50, 50·0.
        #expect(result[0, 0] == RGBA8(r: 200, g: 50, b: 0, a: 255))
        // Opaque colour over half alpha: co = Cs·(1−αb) + αb·Cs·Cb, and αo = 1.
        let alphaB = 128.0 / 255
        func expected(_ cs: UInt8, _ cb: UInt8) -> Int {
            let s = Double(cs) / 255
            return Int(
                clamping: (s * (1 - alphaB) + alphaB * s * Double(cb) / 255) * 255, rounding: .toNearestOrAwayFromZero)
        }
        let half = result[1, 0]
        #expect(half.a == 255)
        #expect(abs(Int(half.r) - expected(255, 200)) <= 1)
        #expect(abs(Int(half.g) - expected(128, 100)) <= 1)
        #expect(abs(Int(half.b) - expected(0, 50)) <= 1)
        // Over clear, source-over shows the colour itself, as CoreGraphics does.
        #expect(result[2, 0] == colour)
    }

    @Test("Normal is source-over, destination-in keeps the image masked by the colour's alpha")
    func normalAndDestinationIn() throws {
        let normal = try tint(RGBA8(r: 0, g: 255, b: 0, a: 255), .normal)
        #expect(normal[0, 0] == RGBA8(r: 0, g: 255, b: 0))
        #expect(normal[2, 0] == RGBA8(r: 0, g: 255, b: 0))
        let masked = try tint(RGBA8(r: 0, g: 0, b: 0, a: 51), .destinationIn)
        #expect(masked[0, 0] == RGBA8(r: 200, g: 100, b: 50, a: 51))
        #expect(masked[2, 0].a == 0)
    }

    @Test("Every blend mode produces the alpha its compositing formula gives")
    func everyModeAlpha() throws {
        let noise = ImageBitmap.noise(width: 16, height: 16, alpha: .random)
        let sa = 200.0 / 255
        for mode in ImageBlendMode.allCases {
            let result = try ImageTintTransformer(color: RGBA8(r: 10, g: 200, b: 90, a: 200), blendMode: mode)
                .transformedImage(TransformTestSupport.image(noise), forKey: "k")
            for y in 0..<16 {
                for x in 0..<16 {
                    let da = Double(noise[x, y].a) / 255
                    let alpha: Double =
                        switch mode {
                        case .clear: 0
                        case .copy: sa
                        case .sourceIn, .destinationIn: sa * da
                        case .sourceOut: sa * (1 - da)
                        case .sourceAtop: da
                        case .destinationOut: da * (1 - sa)
                        case .destinationAtop: sa * (1 - da) + da * sa
                        case .xor: sa * (1 - da) + da * (1 - sa)
                        case .plusLighter: min(sa + da, 1)
                        default: sa + da * (1 - sa)
                        }
                    let got = Int(result.bitmap[x, y].a)
                    #expect(
                        abs(got - Int(clamping: alpha * 255, rounding: .toNearestOrAwayFromZero)) <= 1,
                        "\(mode) at \(x),\(y)")
                }
            }
        }
        let clearOver = try ImageTintTransformer(color: .clear, blendMode: .normal)
            .transformedImage(TransformTestSupport.image(source), forKey: "k")
        #expect(clearOver.bitmap[0, 0] == source[0, 0])
    }
}
