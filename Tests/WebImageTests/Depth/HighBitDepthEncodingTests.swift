import Foundation
import Testing

@testable import WebImage

@Suite("High bit depth encoding")
struct HighBitDepthEncodingTests {
    static var formats: [ImageFormat] {
        var formats: [ImageFormat] = [.png]
        #if TIFF
            formats.append(.tiff)
        #endif
        return formats
    }

    /// `deep` as an image, encoded as `format` and decoded again with the depth kept.
    private func roundTrip(_ deep: ImageBitmap16, _ format: ImageFormat, hasAlpha: Bool = true) throws -> Image {
        var image = Image(bitmap: deep.reducedToEightBits(), format: format, hasAlpha: hasAlpha)
        image.deepBitmap = deep
        let data = try ImageCodersManager.shared.encode(image, as: format, options: ImageEncodeOptions())
        return try DepthFixtures.decodeDeep(data)
    }

    @Test("16-bit pixels survive a round trip bit for bit", arguments: formats)
    func roundTripIsBitExact(format: ImageFormat) throws {
        for alpha in [true, false] {
            let deep = try DepthFixtures.pattern(PixelSize(width: 13, height: 9), alpha: alpha)
            let decoded = try roundTrip(deep, format, hasAlpha: alpha)
            #expect(decoded.deepBitmap == deep, "\(format) alpha \(alpha)")
        }
    }

    @Test("every 16-bit fixture survives a round trip bit for bit", arguments: formats)
    func fixturesRoundTrip(format: ImageFormat) throws {
        var files = DepthFixtures.pngNames.map { $0 + ".png" }
        #if TIFF
            files += DepthFixtures.tiffNames.map { $0 + ".tif" } + ["float.tif"]
        #endif
        for file in files {
            let image = try DepthFixtures.decodeDeep(DepthFixtures.data(file))
            let deep = try #require(image.deepBitmap, "\(file)")
            let data = try ImageCodersManager.shared.encode(image, as: format, options: ImageEncodeOptions())
            #expect(try DepthFixtures.decodeDeep(data).deepBitmap == deep, "\(file) as \(format)")
        }
    }

    @Test("gray deep pixels are written as 16-bit gray and come back exactly")
    func grayRoundTrip() throws {
        let image = try DepthFixtures.decodeDeep(DepthFixtures.data("graya16.png"))
        var options = ImageEncodeOptions()
        options.writesGrayscale = true
        let png = try ImageCodersManager.shared.encode(image, as: .png, options: options)
        // IHDR: bit depth 16, colour type 4 (gray and alpha).
        #expect(png[png.startIndex + 24] == 16 && png[png.startIndex + 25] == 4)
        #expect(try DepthFixtures.decodeDeep(png).deepBitmap == image.deepBitmap)
    }

    @Test("an image without deep pixels is still written at 8 bits")
    func eightBitImagesStayEightBit() throws {
        let image = try ImageCodersManager.shared.decode(Fixtures.data("png/rgba8.png"), options: ImageDecodeOptions())
        let png = try ImageCodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions())
        #expect(png[png.startIndex + 24] == 8)
        #expect(try DepthFixtures.decodeDeep(png).deepBitmap == nil)
    }

    @Test("formats that hold 8 bits encode the 8-bit bitmap")
    func jpegUsesTheEightBitBitmap() throws {
        let image = try DepthFixtures.decodeDeep(DepthFixtures.data("rgb16.png"))
        let jpeg = try ImageCodersManager.shared.encode(image, as: .jpeg, options: ImageEncodeOptions())
        let decoded = try ImageCodersManager.shared.decode(jpeg, options: ImageDecodeOptions())
        #expect(decoded.bitmap.size == image.bitmap.size && decoded.deepBitmap == nil)
    }

    @Test("the encoder turns the deep pixels upright and fits them in the maximum size")
    func orientationAndMaxSize() throws {
        let deep = try DepthFixtures.pattern(PixelSize(width: 6, height: 4), alpha: false)
        var image = Image(bitmap: deep.reducedToEightBits(), orientation: .right, hasAlpha: false)
        image.deepBitmap = deep
        let png = try ImageCodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions())
        #expect(try DepthFixtures.decodeDeep(png).deepBitmap == deep.applyingOrientation(.right))
        var options = ImageEncodeOptions()
        options.maxPixelSize = PixelSize(width: 3, height: 3)
        let small = try ImageCodersManager.shared.encode(image, as: .png, options: options)
        #expect(try DepthFixtures.decodeDeep(small).deepBitmap?.size == PixelSize(width: 2, height: 3))
    }
}
