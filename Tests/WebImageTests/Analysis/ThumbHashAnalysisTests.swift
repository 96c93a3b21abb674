import Foundation
import Testing

@testable import WebImage

@Suite("ThumbHash")
struct ThumbHashAnalysisTests {
    @Test("The same bytes as thumbhash-python's for pictures that fit 100×100, alpha included")
    func matchesReferenceImplementation() throws {
        let references = try ReferenceHashes.load().thumbhash
        #expect(references.count >= 3)
        for (name, expected) in references {
            #expect(try ReferenceHashes.image(name).thumbHashHexString() == expected, "\(name)")
        }
    }

    @Test("A decoded gradient is within 20 levels a channel, on average, of the source")
    func gradientDecodesClose() throws {
        let source = AnalysisPictures.gradient(width: 300, height: 200)
        let decoder = ThumbHashDecoder(hash: Image(bitmap: source).thumbHash())
        let decoded = decoder.decode()
        let expected = try source.resampled(to: decoded.size, filter: .box)
        let error = AnalysisPictures.meanAbsoluteError(decoded, expected)
        // Four bits a factor and the decoder's saturation boost: thumbhash-python's own decoder
        // is 17.3 levels off on this picture at 100×67.
        #expect(error < 20, "mean absolute error \(error)")
        #expect(!decoder.hasAlpha)
    }

    @Test("A decoded red and navy image is within 20 levels a channel, on average, of the source")
    func twoColorsDecodeClose() throws {
        let source = AnalysisPictures.twoColors(width: 120, height: 120)
        let decoded = ThumbHashDecoder(hash: Image(bitmap: source).thumbHash()).decode()
        let expected = try source.resampled(to: decoded.size, filter: .box)
        let error = AnalysisPictures.meanAbsoluteError(decoded, expected)
        #expect(error < 20, "mean absolute error \(error)")
    }

    @Test(
        "The aspect ratio in the hash is the image's, to the nearest seventh on the shorter side",
        arguments: [(400, 200), (200, 400), (300, 300), (640, 480), (90, 160), (700, 100)])
    func aspectRatio(width: Int, height: Int) {
        let hash = Image(bitmap: ImageBitmap(width: width, height: height, fill: .white)).thumbHash()
        let decoder = ThumbHashDecoder(hash: hash)
        #expect(decoder.isLandscape == (width > height))
        // Seven luminance factors on the longer side, the shorter one's share of seven rounded.
        let shorterShare = Double(min(width, height)) / Double(max(width, height))
        let stored = min(decoder.aspectRatio, 1 / decoder.aspectRatio)
        #expect(abs(stored - shorterShare) <= 1.0 / 14 + 1e-9, "stored \(decoder.aspectRatio) for \(width)x\(height)")
    }

    @Test("An image with transparent pixels is flagged as having alpha, and decodes them transparent")
    func alphaIsFlagged() {
        var source = ImageBitmap(width: 60, height: 60, fill: .clear)
        for y in 0..<60 { for x in 0..<30 { source[x, y] = AnalysisPictures.red } }
        let decoder = ThumbHashDecoder(hash: Image(bitmap: source).thumbHash())
        #expect(decoder.hasAlpha)
        let decoded = decoder.decode()
        #expect(decoded[2, 16].a > 200, "\(decoded[2, 16])")
        #expect(decoded[29, 16].a < 55, "\(decoded[29, 16])")
        #expect(isClose(decoded[2, 16], RGBA8(r: 255, g: 0, b: 0, a: decoded[2, 16].a), tolerance: 40))
    }

    @Test("The hex string is the bytes, two uppercase digits each")
    func hexString() {
        let image = Image(bitmap: AnalysisPictures.gradient(width: 30, height: 20))
        let bytes = image.thumbHash()
        let hex = image.thumbHashHexString()
        #expect(hex == bytes.map { String(format: "%02X", $0) }.joined())
    }

    @Test("The image is hashed as shown: a turned image hashes as its upright pixels")
    func orientationIsApplied() {
        let stored = AnalysisPictures.gradient(width: 80, height: 50)
        let turned = Image(bitmap: stored, orientation: .left)
        #expect(turned.thumbHash() == Image(bitmap: stored.applyingOrientation(.left)).thumbHash())
        #expect(!ThumbHashDecoder(hash: turned.thumbHash()).isLandscape)
    }
}
