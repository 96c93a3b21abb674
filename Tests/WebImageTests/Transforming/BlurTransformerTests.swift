import Foundation
import Testing

@testable import WebImage

@Suite("Blur transformer")
struct BlurTransformerTests {
    @Test("The key is SDWebImage's, with six decimals")
    func keyFormat() {
        #expect(ImageBlurTransformer(radius: 10).transformerKey == "SDImageBlurTransformer(10.000000)")
        #expect(ImageBlurTransformer(radius: 2.5).transformerKey == "SDImageBlurTransformer(2.500000)")
    }

    @Test("A uniform image stays exactly uniform, opaque or translucent", arguments: [255, 128, 7] as [UInt8])
    func uniformImageIsUnchanged(alpha: UInt8) throws {
        let colour = RGBA8(r: 201, g: 99, b: 3, a: alpha)
        let source = Image(bitmap: ImageBitmap(width: 40, height: 23, fill: colour))
        for radius in [0.6, 3, 25] {
            let out = try ImageBlurTransformer(radius: radius).transformedImage(source, forKey: "k")
            #expect(out.bitmap == source.bitmap, "radius \(radius)")
        }
    }

    @Test("The mean colour of a random opaque image is kept within one level per channel")
    func meanColourIsPreserved() throws {
        let source = ImageBitmap.noise(width: 96, height: 64, seed: 11)
        for radius in [1.0, 4, 10] {
            let out = try ImageBlurTransformer(radius: radius).transformedImage(Image(bitmap: source), forKey: "k")
            let before = Self.channelMeans(source)
            let after = Self.channelMeans(out.bitmap)
            for channel in 0..<4 {
                #expect(abs(before[channel] - after[channel]) <= 1, "radius \(radius) channel \(channel)")
            }
        }
    }

    @Test("Away from the edges the result matches a direct Gaussian with σ = radius", arguments: [1.5, 4.0, 9.0])
    func matchesGaussianReference(radius: Double) throws {
        let source = ImageBitmap.noise(width: 100, height: 80, seed: 5, alpha: .random)
        let out = try ImageBlurTransformer(radius: radius).transformedImage(Image(bitmap: source), forKey: "k").bitmap
        let reference = Self.referenceGaussian(source, sigma: radius)
        // Near an edge the two differ by design: each box pass extends the edge pixel of the
        // previous pass, the reference extends the original one (Pillow behaves as we do).
        let margin = Int(clamping: 3 * radius, rounding: .up)
        var worst = 0
        var total = 0
        var compared = 0
        for y in margin..<(80 - margin) {
            for x in margin..<(100 - margin) {
                let pixel = (y * 100 + x) * 4
                let a = Int(out.pixels[pixel + 3])
                for c in 0..<4 {
                    // Compare premultiplied: straight colour is imprecise where alpha is small.
                    let value = c == 3 ? a : (Int(out.pixels[pixel + c]) * a + 127) / 255
                    let difference = abs(value - reference[pixel + c])
                    worst = max(worst, difference)
                    total += difference
                    compared += 1
                }
            }
        }
        #expect(compared >= 4 * 40 * 20)
        #expect(worst <= 5, "worst difference \(worst)")
        #expect(Double(total) / Double(compared) <= 0.75)
    }

    @Test("An opaque shape on transparent black keeps its colour: no dark halo")
    func transparentEdgesDoNotDarken() throws {
        var source = ImageBitmap(width: 32, height: 32, fill: .clear)
        for y in 8..<24 { for x in 8..<24 { source[x, y] = RGBA8(r: 250, g: 240, b: 230) } }
        let out = try ImageBlurTransformer(radius: 3).transformedImage(Image(bitmap: source), forKey: "k").bitmap
        var translucent = 0
        for y in 0..<32 {
            for x in 0..<32 where out[x, y].a > 0 {
                let pixel = out[x, y]
                if pixel.a < 255 { translucent += 1 }
                // Faint pixels carry their colour at a few bits of precision only.
                let slack = pixel.a < 16 ? 16 : 1
                #expect(abs(Int(pixel.r) - 250) <= slack && abs(Int(pixel.b) - 230) <= slack, "(\(x),\(y)) \(pixel)")
            }
        }
        #expect(translucent > 100)
    }

    @Test("Where only alpha varies, every visible pixel keeps the exact colour")
    func alphaOnlyImageKeepsColour() throws {
        var source = ImageBitmap(width: 30, height: 20, fill: .clear)
        var random = SplitMix64(seed: 3)
        for y in 0..<20 {
            for x in 0..<30 { source[x, y] = RGBA8(r: 30, g: 160, b: 90, a: UInt8.random(in: 0...255, using: &random)) }
        }
        let out = try ImageBlurTransformer(radius: 2).transformedImage(Image(bitmap: source), forKey: "k").bitmap
        for y in 0..<20 {
            for x in 0..<30 where out[x, y].a >= 16 {
                #expect(out[x, y].r == 30 && out[x, y].g == 160 && out[x, y].b == 90, "(\(x),\(y)) \(out[x, y])")
            }
        }
        #expect(out != source)
    }

    @Test("Radius 0 returns the same pixels, flagged as transformed, metadata kept")
    func zeroRadiusIsIdentity() throws {
        let source = Image(
            bitmap: ImageBitmap.noise(width: 9, height: 7, seed: 1, alpha: .random), scale: 2, orientation: .right,
            format: .png)
        let out = try ImageBlurTransformer(radius: 0).transformedImage(source, forKey: "k")
        #expect(out.bitmap == source.bitmap)
        #expect(out.isTransformed)
        #expect(out.scale == 2 && out.orientation == .right && out.format == .png)
    }

    @Test("Blurring keeps orientation, scale and format and changes the pixels")
    func metadataIsKept() throws {
        let source = Image(
            bitmap: ImageBitmap.noise(width: 9, height: 7, seed: 2), scale: 3, orientation: .left,
            format: .jpeg)
        let out = try ImageBlurTransformer(radius: 1).transformedImage(source, forKey: "k")
        #expect(
            out.bitmap.size == source.bitmap.size && out.orientation == .left && out.scale == 3 && out.format == .jpeg)
        #expect(out.isTransformed && out.bitmap != source.bitmap)
    }

    @Test(
        "A negative, NaN or infinite radius is a typed error", arguments: [-1, .nan, .infinity, -.infinity] as [Double])
    func badRadiusThrows(radius: Double) {
        let source = Image(bitmap: ImageBitmap(width: 4, height: 4, fill: .white))
        #expect(throws: WebImageError.self) {
            try ImageBlurTransformer(radius: radius).transformedImage(source, forKey: "k")
        }
    }

    @Test("Huge radii and 1-pixel images work")
    func extremeSizes() throws {
        let line = ImageBitmap.noise(width: 1, height: 9, seed: 4, alpha: .random)
        let out = try ImageBlurTransformer(radius: 500).transformedImage(Image(bitmap: line), forKey: "k")
        #expect(out.bitmap.size == line.size)
        let dot = ImageBitmap(width: 1, height: 1, fill: RGBA8(r: 1, g: 2, b: 3, a: 4))
        #expect(try ImageBlurTransformer(radius: 2).transformedImage(Image(bitmap: dot), forKey: "k").bitmap == dot)
    }

    @Test("Several cores give the same pixels as one")
    func parallelMatchesSerial() throws {
        let source = Image(bitmap: ImageBitmap.noise(width: 700, height: 400, seed: 9, alpha: .random))
        var serial = ImageBlurTransformer(radius: 6)
        serial.usesMultipleCores = false
        let one = try serial.transformedImage(source, forKey: "k")
        let many = try ImageBlurTransformer(radius: 6).transformedImage(source, forKey: "k")
        #expect(one.bitmap == many.bitmap)
    }

    @Test("Three extended boxes add up to exactly σ²", arguments: [0.3, 1, 2.7, 10, 33.3])
    func boxVarianceMatchesSigma(sigma: Double) {
        let box = ExtendedBox(sigma: sigma, passes: 3)
        #expect(abs(3 * box.variance - sigma * sigma) <= 1e-4 * max(1, sigma * sigma))
    }

    // MARK: - Helpers

    static func channelMeans(_ bitmap: ImageBitmap) -> [Double] {
        var sums = [Double](repeating: 0, count: 4)
        for (i, value) in bitmap.pixels.enumerated() { sums[i % 4] += Double(value) }
        return sums.map { $0 / Double(bitmap.width * bitmap.height) }
    }

    /// A separable Gaussian (σ = `sigma`, cut at 4σ, edges extended) over premultiplied values;
    /// returns premultiplied RGB and alpha on 0...255, rounded.
    static func referenceGaussian(_ bitmap: ImageBitmap, sigma: Double) -> [Int] {
        let reach = Int(clamping: 4 * sigma, rounding: .up)
        var kernel = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let (w, h) = (bitmap.width, bitmap.height)
        var values = [Double](repeating: 0, count: w * h * 4)
        for i in 0..<w * h {
            let a = Double(bitmap.pixels[4 * i + 3])
            for c in 0..<3 { values[4 * i + c] = Double(bitmap.pixels[4 * i + c]) * a / 255 }
            values[4 * i + 3] = a
        }
        func pass(_ input: [Double], horizontal: Bool) -> [Double] {
            var output = [Double](repeating: 0, count: input.count)
            for y in 0..<h {
                for x in 0..<w {
                    for c in 0..<4 {
                        var sum = 0.0
                        for k in -reach...reach {
                            let sx = horizontal ? min(max(x + k, 0), w - 1) : x
                            let sy = horizontal ? y : min(max(y + k, 0), h - 1)
                            sum += kernel[k + reach] * input[(sy * w + sx) * 4 + c]
                        }
                        output[(y * w + x) * 4 + c] = sum
                    }
                }
            }
            return output
        }
        return pass(pass(values, horizontal: true), horizontal: false).map {
            Int(clamping: $0, rounding: .toNearestOrAwayFromZero)
        }
    }
}
