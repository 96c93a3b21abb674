import Foundation
import Testing

@testable import WebImage

@Suite("Resampling: row-fused and multi-core paths")
struct ResamplerFastPathTests {
    @Test("A uniform translucent image stays exactly uniform when shrinking and enlarging")
    func translucentUniformIsExact() throws {
        let colour = RGBA8(r: 13, g: 200, b: 77, a: 100)
        let source = ImageBitmap(width: 50, height: 40, fill: colour)
        for size in [
            PixelSize(width: 7, height: 9), PixelSize(width: 50, height: 39), PixelSize(width: 120, height: 90),
        ] {
            let out = try source.resampled(to: size)
            #expect(out == ImageBitmap(width: size.width, height: size.height, fill: colour), "\(size)")
        }
    }

    @Test("An integer-ratio box downscale gives each block's exact average, within 1", arguments: [true, false])
    func boxDownscaleAveragesBlocks(opaque: Bool) throws {
        let source = ImageBitmap.noise(width: 40, height: 30, seed: 7, alpha: opaque ? .opaque : .random)
        let out = try source.resampled(to: PixelSize(width: 10, height: 10), filter: .box)
        for y in 0..<10 {
            for x in 0..<10 {
                // Block of 4×3 pixels, averaged in premultiplied alpha.
                var sums = [Double](repeating: 0, count: 4)
                for dy in 0..<3 {
                    for dx in 0..<4 {
                        let p = source[x * 4 + dx, y * 3 + dy]
                        let a = Double(p.a)
                        sums[0] += Double(p.r) * a
                        sums[1] += Double(p.g) * a
                        sums[2] += Double(p.b) * a
                        sums[3] += a
                    }
                }
                let pixel = out[x, y]
                #expect(abs(Double(pixel.a) - sums[3] / 12) <= 1, "(\(x),\(y)) alpha")
                let channels = [pixel.r, pixel.g, pixel.b]
                for c in 0..<3 where sums[3] > 0 {
                    #expect(abs(Double(channels[c]) - sums[c] / sums[3]) <= 1, "(\(x),\(y)) channel \(c)")
                }
            }
        }
    }

    @Test("Lanczos-3 matches a direct double-precision reference within 1 level", arguments: [true, false])
    func lanczosMatchesReference(opaque: Bool) throws {
        let source = ImageBitmap.noise(width: 61, height: 47, seed: 3, alpha: opaque ? .opaque : .random)
        for size in [
            PixelSize(width: 17, height: 13), PixelSize(width: 29, height: 47), PixelSize(width: 70, height: 60),
        ] {
            let out = try source.resampled(to: size, filter: .lanczos3)
            let reference = referenceLanczos3(source, to: size)
            var worst = 0
            for i in 0..<out.pixels.count {
                let alpha = Int(out.pixels[i / 4 * 4 + 3])
                // Straight colour is only meaningful where alpha is not tiny.
                guard i % 4 == 3 || alpha >= 32 else { continue }
                worst = max(worst, abs(Int(out.pixels[i]) - Int(reference.pixels[i])))
            }
            #expect(worst <= 1, "\(size): worst difference \(worst)")
        }
    }

    @Test("Several cores give the same pixels as one")
    func parallelMatchesSerial() throws {
        let source = ImageBitmap.noise(width: 1200, height: 900, seed: 5, alpha: .random)
        let size = PixelSize(width: 301, height: 200)
        let one = try source.resampled(to: size, usesMultipleCores: false)
        let many = try source.resampled(to: size, usesMultipleCores: true)
        #expect(one == many)
    }

    @Test("The row-fused and the columns-last paths agree within 1 level", arguments: [true, false])
    func bothPassOrdersAgree(opaque: Bool) throws {
        let source = ImageBitmap.noise(width: 45, height: 38, seed: 9, alpha: opaque ? .opaque : .random)
        let size = PixelSize(width: 19, height: 12)
        let horizontal = ResamplingContributions(inputCount: 45, outputCount: 19, filter: .lanczos3)
        let vertical = ResamplingContributions(inputCount: 38, outputCount: 12, filter: .lanczos3)
        let fused = source.resampledVerticalFirst(
            to: size, horizontal: horizontal, vertical: vertical, opaque: opaque, threads: 1)
        let classic = source.resampledHorizontalFirst(
            to: size, horizontal: horizontal, vertical: vertical, opaque: opaque)
        for i in 0..<fused.pixels.count where classic.pixels[i / 4 * 4 + 3] >= 32 || i % 4 == 3 {
            #expect(abs(Int(fused.pixels[i]) - Int(classic.pixels[i])) <= 1, "byte \(i)")
        }
    }
}
