import Foundation
import Testing

@testable import WebImage

@Suite("BlurHash")
struct BlurHashAnalysisTests {
    @Test(
        "The text is 4 + 2·x·y base-83 characters and its first names the components",
        arguments: [(1, 1), (4, 3), (3, 7), (9, 9)])
    func lengthAndComponents(x: Int, y: Int) throws {
        let hash = try Image(bitmap: AnalysisPictures.gradient(width: 50, height: 30)).blurHash(components: (x, y))
        #expect(hash.count == 4 + 2 * x * y)
        #expect(hash.allSatisfy { BlurHashDecoder.digits.contains($0) })
        let decoded = try #require(BlurHashDecoder.components(hash))
        #expect(decoded.x == x && decoded.y == y)
    }

    @Test("The same text as the blurhash package's for pictures it takes unresized")
    func matchesReferenceImplementation() throws {
        let references = try ReferenceHashes.load().blurhash4x3
        #expect(references.count >= 2)
        for (name, expected) in references {
            #expect(try ReferenceHashes.image(name).blurHash(components: (4, 3)) == expected, "\(name)")
        }
    }

    // The bounds below leave a little room over what the blurhash package's own encoder and
    // decoder reach on the same pictures (unshrunk): 8.8 levels for the gradient, 18.4 for red
    // and navy. BlurHash's cosines start at pixel edges, not centres, so even a flat area has
    // small AC factors, and quantising them shows.

    @Test("A decoded gradient is within 12 levels a channel, on average, of the source at 32×32")
    func gradientDecodesClose() throws {
        let source = AnalysisPictures.gradient(width: 200, height: 120)
        let hash = try Image(bitmap: source).blurHash(components: (4, 3))
        let decoded = try #require(BlurHashDecoder.decode(hash, width: 32, height: 32))
        let expected = try source.resampled(to: PixelSize(width: 32, height: 32), filter: .box)
        let error = AnalysisPictures.meanAbsoluteError(decoded, expected)
        #expect(error < 12, "mean absolute error \(error)")
    }

    @Test("A decoded red and navy image is within 20 levels a channel, on average, of the source")
    func twoColorsDecodeClose() throws {
        let source = AnalysisPictures.twoColors(width: 128, height: 64)
        let hash = try Image(bitmap: source).blurHash(components: (9, 9))
        let decoded = try #require(BlurHashDecoder.decode(hash, width: 32, height: 32))
        let expected = try source.resampled(to: PixelSize(width: 32, height: 32), filter: .box)
        let error = AnalysisPictures.meanAbsoluteError(decoded, expected)
        #expect(error < 20, "mean absolute error \(error)")
        // Each side shows its own colour. Ringing is small in linear light, but sRGB magnifies it
        // near 0: navy's red channel comes back near 100 (97 with the blurhash package too).
        let left = decoded[2, 16]
        let right = decoded[29, 16]
        #expect(left.r >= 230 && left.g <= 20 && left.b <= 20, "\(left)")
        #expect(abs(Int(right.b) - 128) <= 12 && right.g <= 20 && right.r < right.b, "\(right)")
    }

    @Test("The constant factor of a uniform image is its colour exactly, and it decodes within 16 levels")
    func uniformColor() throws {
        let color = RGBA8(r: 30, g: 140, b: 220)
        let hash = try Image(bitmap: ImageBitmap(width: 300, height: 200, fill: color)).blurHash(components: (5, 4))
        #expect(BlurHashDecoder.averageColor(hash) == color)
        let decoded = try #require(BlurHashDecoder.decode(hash, width: 8, height: 8))
        for y in 0..<8 {
            for x in 0..<8 { #expect(isClose(decoded[x, y], color, tolerance: 16), "(\(x),\(y)) \(decoded[x, y])") }
        }
    }

    @Test(
        "Components outside 1...9 throw invalidArgument",
        arguments: [(0, 3), (4, 0), (10, 1), (1, 10), (-1, 4), (Int.max, Int.min)])
    func componentsOutOfRange(x: Int, y: Int) {
        let image = Image(bitmap: ImageBitmap(width: 4, height: 4, fill: .white))
        let error = webImageError { _ = try image.blurHash(components: (x, y)) }
        #expect(error?.code == .invalidArgument, "\(String(describing: error))")
    }

    @Test("The image is hashed as shown: a turned image hashes as its upright pixels")
    func orientationIsApplied() throws {
        let stored = AnalysisPictures.gradient(width: 40, height: 24)
        let turned = Image(bitmap: stored, orientation: .right)
        let upright = Image(bitmap: stored.applyingOrientation(.right))
        #expect(try turned.blurHash(components: (4, 3)) == upright.blurHash(components: (4, 3)))
        #expect(try turned.blurHash(components: (4, 3)) != Image(bitmap: stored).blurHash(components: (4, 3)))
    }

    @Test("Transparent pixels take the visible colour, whatever colour they hide")
    func transparentPixelsTakeVisibleColor() throws {
        // Red beside transparent pixels hashes as all red: the placeholder has no black half.
        let allRed = try Image(bitmap: ImageBitmap(width: 40, height: 40, fill: AnalysisPictures.red))
            .blurHash(components: (4, 3))
        for hidden in [RGBA8.clear, RGBA8(r: 0, g: 255, b: 0, a: 0)] {
            let source = AnalysisPictures.twoColors(width: 40, height: 40, right: hidden)
            #expect(try Image(bitmap: source).blurHash(components: (4, 3)) == allRed, "hiding \(hidden)")
        }
    }
}
