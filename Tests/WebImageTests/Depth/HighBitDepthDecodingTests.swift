import Foundation
import Testing

@testable import WebImage

@Suite("High bit depth decoding")
struct HighBitDepthDecodingTests {
    @Test("16-bit PNGs decode to exactly their 16-bit samples", arguments: DepthFixtures.pngNames)
    func pngDecodesExactly(name: String) throws {
        let image = try DepthFixtures.decodeDeep(DepthFixtures.data(name + ".png"))
        let deep = try #require(image.deepBitmap, "\(name)")
        #expect(deep == (try DepthFixtures.expected(name + ".png")), "\(name)")
        #expect(image.bitmap == deep.reducedToEightBits(), "\(name)")
        #expect(image.format == .png)
    }

    #if TIFF
        @Test("16-bit TIFFs decode to exactly their 16-bit samples", arguments: DepthFixtures.tiffNames)
        func tiffDecodesExactly(name: String) throws {
            let image = try DepthFixtures.decodeDeep(DepthFixtures.data(name + ".tif"))
            let deep = try #require(image.deepBitmap, "\(name)")
            #expect(deep == (try DepthFixtures.expected(name + ".tif")), "\(name)")
            #expect(image.bitmap == deep.reducedToEightBits(), "\(name)")
            #expect(image.hasAlpha == name.hasPrefix("rgba"))
        }

        @Test("float TIFF: linear light encoded with the sRGB curve, clamped, NaN as 0 (within 1 of 65535)")
        func floatTIFFIsSRGBEncoded() throws {
            let image = try DepthFixtures.decodeDeep(DepthFixtures.data("float.tif"))
            let deep = try #require(image.deepBitmap)
            #expect(DepthFixtures.maxDifference(deep, try DepthFixtures.expected("float.tif")) <= 1)
            // The pixel holding NaN, 0.5 and +infinity.
            let special = try #require(deep[3, 2])
            #expect(special.r == 0 && special.b == 65535 && special.a == 65535)
            #expect(abs(Int(special.g) - 48_192) <= 1)
        }
    #endif

    @Test("without the option a 16-bit PNG keeps its high bytes and gets no deep bitmap")
    func withoutOptionNothingChanges() throws {
        for name in DepthFixtures.pngNames {
            let image = try ImageCodersManager.shared.decode(
                DepthFixtures.data(name + ".png"), options: ImageDecodeOptions())
            #expect(image.deepBitmap == nil, "\(name)")
            let highBytes = try DepthFixtures.expected(name + ".png").pixels.map { UInt8($0 >> 8) }
            #expect(image.bitmap.pixels == highBytes, "\(name)")
        }
    }

    @Test("8-bit sources give no deep bitmap even with the option, and the same pixels")
    func eightBitSourcesAreUnchanged() throws {
        var paths = ["png/rgba8.png", "png/gray8.png", "png/palette4_trns.png", "jpeg/photo_800x600.jpg"]
        #if TIFF
            paths.append("tiff/rgba.tif")
        #endif
        #if AVIF
            paths += ["avif/still.avif", "avif/alpha.avif"]
        #endif
        #if HEIC
            paths += ["heic/still.heic", "heic/alpha.heic"]
        #endif
        #if JPEGXL
            paths += ["jxl/lossless.jxl", "jxl/alpha.jxl", "jxl/photo.jxl"]
        #endif
        for path in paths {
            let data = try Fixtures.data(path)
            let plain = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            let deep = try DepthFixtures.decodeDeep(data)
            #expect(deep.deepBitmap == nil, "\(path)")
            #expect(deep.bitmap == plain.bitmap, "\(path)")
            #expect(deep.memoryCost == plain.memoryCost, "\(path)")
        }
    }

    @Test("the memory cost counts the deep bitmap")
    func memoryCostCountsDeepPixels() throws {
        let image = try DepthFixtures.decodeDeep(DepthFixtures.data("rgba16.png"))
        let pixels = DepthFixtures.size.pixelCount
        #expect(image.memoryCost == pixels * 4 + pixels * 8 + image.metadata.byteCount)
    }

    @Test("the 8-bit bitmap is the deep one rounded to nearest")
    func eightBitIsRounded() throws {
        let deep = try ImageBitmap16(width: 2, height: 1, pixels: [0, 128, 129, 65535, 32767, 32896, 65150, 257])
        #expect(deep.reducedToEightBits().pixels == [0, 0, 1, 255, 127, 128, 254, 1])
        #expect(ImageBitmap16(widening: deep.reducedToEightBits()).reducedToEightBits() == deep.reducedToEightBits())
    }

    @Test("a thumbnail and the EXIF orientation apply to the deep pixels, the 8-bit ones made from them")
    func thumbnailAndOrientationApplyToDeepPixels() throws {
        var options = DepthFixtures.deepOptions
        options.thumbnailPixelSize = PixelSize(width: 8, height: 8)
        let image = try ImageCodersManager.shared.decode(DepthFixtures.data("rgb16.png"), options: options)
        let deep = try #require(image.deepBitmap)
        #expect(image.isThumbnail && deep.size == PixelSize(width: 8, height: 6))
        #expect(image.bitmap == deep.reducedToEightBits())
    }

    @Test("bad sizes and counts for a deep bitmap throw instead of trapping")
    func badSizesThrow() {
        #expect(throws: WebImageError.self) { try ImageBitmap16(width: 0, height: 4, pixels: []) }
        #expect(throws: WebImageError.self) { try ImageBitmap16(width: 2, height: 2, pixels: [1, 2, 3]) }
        #expect(throws: WebImageError.self) { try ImageBitmap16(width: .max, height: .max, pixels: []) }
        #expect(throws: WebImageError.self) {
            try ImageBitmap16(size: PixelSize(width: 1 << 20, height: 1 << 20), fill: RGBA16(r: 0, g: 0, b: 0))
        }
        #expect(throws: WebImageError.self) {
            try ImageBitmap16(width: -1, height: 3) { _ throws(WebImageError) in }
        }
    }
}
