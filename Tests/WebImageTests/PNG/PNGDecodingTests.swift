import Foundation
import Testing

@testable import WebImage

@Suite("PNG decoding")
struct PNGDecodingTests {
    @Test("every colour type and bit depth decodes to the expected RGBA8 pixels", arguments: PNGFixture.decodable)
    func decodesExactPixels(name: String) throws {
        let image = try PNGFixture.decodeStored(PNGFixture.data(name))
        let expected = try PNGFixture.expectedPixels(name)
        #expect(image.bitmap.pixels.count == expected.count)
        let firstMismatch = zip(image.bitmap.pixels, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(firstMismatch == nil, "\(name): first differing byte at \(firstMismatch?.offset ?? -1)")
        #expect(image.format == .png)
        #expect(!image.isThumbnail)
        #expect(!image.isIncremental)
    }

    @Test("the fixture list covers every committed PNG fixture")
    func fixtureListIsComplete() throws {
        let committed = try Fixtures.allImagePaths()
            .filter { $0.hasPrefix("png/") && !$0.contains("/invalid/") }
            .map { String($0.dropFirst(4).dropLast(4)) }
        #expect(Set(committed) == Set(PNGFixture.decodable))
    }

    @Test("sizes come from IHDR")
    func dimensions() throws {
        let image = try PNGFixture.decodeStored(PNGFixture.data("gray1"))
        #expect(image.width == 11)
        #expect(image.height == 7)
        let pillow = try PNGFixture.decodeStored(PNGFixture.data("pillow_rgba8"))
        #expect(pillow.bitmap.size == PixelSize(width: 64, height: 48))
    }

    @Test("known pixels: extremes of low depths expand by bit replication, 16-bit keeps the high byte")
    func knownPoints() throws {
        // The generator puts 0 at (0,0) and the maximum sample at (1,0) in every plain fixture.
        for name in ["gray1", "gray2", "gray4", "gray8", "gray16", "rgb16", "rgba16", "graya16"] {
            let bitmap = try PNGFixture.decodeStored(PNGFixture.data(name)).bitmap
            let hasAlphaChannel = name.hasPrefix("rgba") || name.hasPrefix("graya")
            #expect(bitmap[0, 0] == RGBA8(r: 0, g: 0, b: 0, a: hasAlphaChannel ? 0 : 255), "\(name)")
            #expect(bitmap[1, 0] == RGBA8(r: 255, g: 255, b: 255, a: 255), "\(name)")
        }
        // gray2 samples are (x*4099 + 62) % 4 on row 0: 2 at x = 4 → 170, 1 at x = 5 → 85.
        let gray2 = try PNGFixture.decodeStored(PNGFixture.data("gray2")).bitmap
        #expect(gray2[4, 0] == RGBA8(r: 170, g: 170, b: 170))
        #expect(gray2[5, 0] == RGBA8(r: 85, g: 85, b: 85))
        // gray16_trns cycles 0x1234 (the key), 0x12FF, 0xABCD along x + y.
        let gray16 = try PNGFixture.decodeStored(PNGFixture.data("gray16_trns")).bitmap
        #expect(gray16[0, 0] == RGBA8(r: 0x12, g: 0x12, b: 0x12, a: 0))
        #expect(gray16[1, 0] == RGBA8(r: 0x12, g: 0x12, b: 0x12, a: 255))
        #expect(gray16[2, 0] == RGBA8(r: 0xAB, g: 0xAB, b: 0xAB, a: 255))
    }

    @Test("palette entries without a tRNS value are opaque; listed ones take their alpha")
    func paletteTransparency() throws {
        // palette2_trns: index (x*3 + y*5) % 4; tRNS lists entries 0 (alpha 0) and 1 (alpha 97).
        let bitmap = try PNGFixture.decodeStored(PNGFixture.data("palette2_trns")).bitmap
        #expect(bitmap[0, 0] == RGBA8(r: 0, g: 50, b: 255, a: 0))  // index 0
        #expect(bitmap[3, 0] == RGBA8(r: 37, g: 141, b: 242, a: 97))  // index 1
        #expect(bitmap[2, 0].a == 255)  // index 2
    }

    @Test(
        "an interlaced image decodes to the same pixels as its non-interlaced twin",
        arguments: [("gray2_adam7", "gray2"), ("rgb16_adam7", "rgb16"), ("rgba8_adam7", "rgba8")])
    func interlacedEqualsPlain(interlaced: String, plain: String) throws {
        let a = try PNGFixture.decodeStored(PNGFixture.data(interlaced)).bitmap
        let b = try PNGFixture.decodeStored(PNGFixture.data(plain)).bitmap
        #expect(a == b)
    }

    @Test(
        "hasAlpha: set by an alpha channel or a tRNS chunk, not by the pixels",
        arguments: [
            ("gray8", false), ("rgb16", false), ("palette8", false), ("graya8", true), ("rgba16", true),
            ("palette1_trns", true), ("gray8_trns", true), ("rgb8_trns", true),
        ])
    func hasAlpha(name: String, expected: Bool) throws {
        let data = try PNGFixture.data(name)
        #expect(try PNGCoder().decode(data, options: ImageDecodeOptions()).hasAlpha == expected)
        #expect(try PNGCoder().imageInfo(for: data).hasAlpha == expected)
    }

    @Test("the scale factor option sets the image scale; values below 1 mean 1")
    func scaleFactor() throws {
        var options = ImageDecodeOptions()
        options.scaleFactor = 2
        #expect(try PNGCoder().decode(PNGFixture.data("rgb8"), options: options).scale == 2)
        options.scaleFactor = 0.5
        #expect(try PNGCoder().decode(PNGFixture.data("rgb8"), options: options).scale == 1)
    }

    @Test("the built-in coders manager picks the PNG coder")
    func registered() throws {
        let data = try PNGFixture.data("rgba8")
        #expect(ImageCodersManager.shared.decoder(for: data) is PNGCoder)
        #expect(ImageCodersManager.shared.encoder(for: .png) is PNGCoder)
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
        #expect(image.bitmap.pixels == (try PNGFixture.expectedPixels("rgba8")))
    }
}
