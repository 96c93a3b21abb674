import Foundation
import Testing

@testable import WebImage

@Suite("Perceptual hash")
struct PerceptualHashAnalysisTests {
    /// The pictures with reference hashes, all different from one another.
    static let pictures = ["landscape.png", "portrait.png", "rings.png", "shapes.png"]

    @Test("Within 4 bits of Python imagehash's phash for every reference picture")
    func matchesImagehash() throws {
        let references = try ReferenceHashes.load().phash
        #expect(Set(references.keys) == Set(Self.pictures))
        for (name, hex) in references {
            let expected = try #require(PerceptualHash(hexString: hex))
            let hash = try ReferenceHashes.image(name).perceptualHash()
            // The resamplers round differently (Pillow in 8-bit fixed point, pass by pass), which
            // can flip the few frequencies that lie next to the median.
            #expect(hash.hammingDistance(to: expected) <= 4, "\(name): \(hash) against imagehash's \(hex)")
        }
    }

    @Test("The same picture resized to 70 % and saved as JPEG at quality 0.5 is within 6 bits")
    func resizedAndRecompressedIsClose() throws {
        for name in Self.pictures {
            let original = try ReferenceHashes.image(name)
            let smaller = try original.bitmap.resampled(
                to: PixelSize(width: original.width * 7 / 10, height: original.height * 7 / 10))
            var options = ImageEncodeOptions()
            options.compressionQuality = 0.5
            let jpeg = try ImageCodersManager.shared.encode(Image(bitmap: smaller), as: .jpeg, options: options)
            let copy = try ImageCodersManager.shared.decode(jpeg, options: ImageDecodeOptions())
            let distance = original.perceptualHash().hammingDistance(to: copy.perceptualHash())
            #expect(distance <= 6, "\(name): \(distance) bits")
        }
    }

    @Test("Different pictures are at least 20 bits apart")
    func differentPicturesAreFar() throws {
        let hashes = try Self.pictures.map { try ReferenceHashes.image($0).perceptualHash() }
        for i in hashes.indices {
            for j in hashes.indices where j > i {
                let distance = hashes[i].hammingDistance(to: hashes[j])
                #expect(distance >= 20, "\(Self.pictures[i]) and \(Self.pictures[j]): \(distance) bits")
            }
        }
    }

    @Test("The image is hashed as shown: a turned image is within 2 bits of its upright pixels")
    func orientationIsApplied() throws {
        let stored = try ReferenceHashes.image("shapes.png").bitmap
        let turned = Image(bitmap: stored, orientation: .rightMirrored).perceptualHash()
        let upright = Image(bitmap: stored.applyingOrientation(.rightMirrored)).perceptualHash()
        #expect(turned.hammingDistance(to: upright) <= 2, "\(turned) against \(upright)")
        #expect(turned.hammingDistance(to: Image(bitmap: stored).perceptualHash()) >= 20)
    }

    @Test("The hex string is 16 lowercase digits, and reads back in either case")
    func hexString() {
        let hash = PerceptualHash(value: 0x0123_4567_89AB_CDEF)
        #expect(hash.hexString == "0123456789abcdef")
        #expect(hash.description == "0123456789abcdef")
        #expect(PerceptualHash(value: 5).hexString == "0000000000000005")
        #expect(PerceptualHash(hexString: "0123456789abcdef") == hash)
        #expect(PerceptualHash(hexString: "0123456789ABCDEF") == hash)
        for bad in [
            "", "0123456789abcde", "0123456789abcdef0", "0x23456789abcdef", "0123456789abcdeg", "０123456789abcde",
        ] {
            #expect(PerceptualHash(hexString: bad) == nil, "\(bad)")
        }
    }

    @Test("The Hamming distance counts differing bits")
    func hammingDistance() {
        let zero = PerceptualHash(value: 0)
        #expect(zero.hammingDistance(to: zero) == 0)
        #expect(zero.hammingDistance(to: PerceptualHash(value: .max)) == 64)
        #expect(PerceptualHash(value: 0b1011).hammingDistance(to: PerceptualHash(value: 0b0110)) == 3)
        #expect(PerceptualHash(value: 0b0110).hammingDistance(to: PerceptualHash(value: 0b1011)) == 3)
    }

    @Test("Transparent pixels count as white, whatever colour they hide")
    func transparentPixelsAreWhite() throws {
        var shape = ImageBitmap(width: 64, height: 64, fill: RGBA8(r: 200, g: 10, b: 90, a: 0))
        var onWhite = ImageBitmap(width: 64, height: 64, fill: .white)
        for y in 10..<40 {
            for x in 20..<50 {
                shape[x, y] = .black
                onWhite[x, y] = .black
            }
        }
        #expect(Image(bitmap: shape).perceptualHash() == Image(bitmap: onWhite).perceptualHash())
    }
}
