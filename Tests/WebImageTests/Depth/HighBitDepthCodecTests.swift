import Foundation
import Testing

@testable import WebImage

/// AVIF, HEIC and JPEG XL with more than 8 bits a sample, kept on request.
@Suite("High bit depth in AVIF, HEIC and JPEG XL")
struct HighBitDepthCodecTests {
    /// `deep` as an image of `format`, as a decoder keeping the depth would give it.
    private static func image(_ deep: ImageBitmap16, _ format: ImageFormat, metadata: ImageMetadata = ImageMetadata())
        -> Image
    {
        var image = Image(
            bitmap: deep.reducedToEightBits(), format: format, hasAlpha: deep.containsTransparency, metadata: metadata)
        image.deepBitmap = deep
        return image
    }

    private static func encode(_ image: Image, _ format: ImageFormat, lossless: Bool = false) throws -> Data {
        var options = ImageEncodeOptions()
        options.lossless = lossless
        return try ImageCodersManager.shared.encode(image, as: format, options: options)
    }

    /// A 13x9 pattern with and without alpha, each encoded losslessly as `format` and decoded
    /// again with the depth kept.
    private static func losslessRoundTrips(_ format: ImageFormat) throws
        -> [(source: ImageBitmap16, data: Data, decoded: Image)]
    {
        try [true, false].map { alpha in
            let source = try DepthFixtures.pattern(PixelSize(width: 13, height: 9), alpha: alpha)
            let data = try encode(image(source, format), format, lossless: true)
            return (source, data, try DepthFixtures.decodeDeep(data))
        }
    }

    @Test(
        "10- and 12-bit AVIF, 10-bit HEIC and 16-bit JPEG XL decode to their samples within the stated tolerance",
        arguments: DepthFixtures.codecFileNames)
    func decodesToTheSamples(file: String) throws {
        let image = try DepthFixtures.decodeDeep(DepthFixtures.data(file))
        let deep = try #require(image.deepBitmap, "\(file)")
        let expected = try DepthFixtures.expected(file)
        #expect(DepthFixtures.maxDifference(deep, expected) <= DepthFixtures.tolerance(file), "\(file)")
        #expect(image.bitmap == deep.reducedToEightBits(), "\(file)")
        #expect(image.hasAlpha == file.hasPrefix("rgba"), "\(file)")
        #expect(image.format == ImageFormat(detecting: try DepthFixtures.data(file)))
    }

    @Test(
        "without the option a deep AVIF, HEIC or JPEG XL file decodes to 8 bits as before, with no deep bitmap",
        arguments: DepthFixtures.codecFileNames)
    func withoutTheOptionNothingChanges(file: String) throws {
        let image = try ImageCodersManager.shared.decode(DepthFixtures.data(file), options: ImageDecodeOptions())
        #expect(image.deepBitmap == nil, "\(file)")
        // The libraries' own reduction to 8 bits: within one level of the reference rounded.
        let expected = try DepthFixtures.expected(file).reducedToEightBits()
        let difference = zip(image.bitmap.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(image.bitmap.size == expected.size && difference <= 1, "\(file)")
    }

    @Test("a thumbnail of a deep file keeps its depth at the thumbnail size", arguments: DepthFixtures.codecFileNames)
    func thumbnailKeepsDepth(file: String) throws {
        var options = DepthFixtures.deepOptions
        options.thumbnailPixelSize = PixelSize(width: 8, height: 8)
        let image = try ImageCodersManager.shared.decode(DepthFixtures.data(file), options: options)
        let deep = try #require(image.deepBitmap, "\(file)")
        #expect(image.isThumbnail && deep.size == PixelSize(width: 8, height: 6), "\(file)")
        #expect(image.bitmap == deep.reducedToEightBits(), "\(file)")
    }

    /// Each lossy format with the largest and the mean difference its default settings show on a
    /// smooth 64x48 picture. AVIF subsamples the chroma (4:2:0), which ramps running across and
    /// down show most: 812 of 65535 measured. JPEG XL's XYB quantization is coarsest at the most
    /// saturated corner: `cjxl -d 0.1` (the distance of the default quality) shows 2701 there on
    /// the same picture, as this encoder does.
    static var lossyBounds: [(format: ImageFormat, worst: Int, mean: Int)] {
        var bounds: [(format: ImageFormat, worst: Int, mean: Int)] = []
        #if AVIF
            bounds.append((.avif, 1024, 256))
        #endif
        #if JPEGXL
            bounds.append((.jpegXL, 3072, 256))
        #endif
        return bounds
    }

    @Test("a lossy deep round trip of a smooth picture stays within the format's stated bounds", arguments: lossyBounds)
    func lossyRoundTrip(format: ImageFormat, worst: Int, mean: Int) throws {
        let deep = try DepthFixtures.gradient(PixelSize(width: 64, height: 48))
        let data = try Self.encode(Self.image(deep, format), format)
        let decoded = try #require(try DepthFixtures.decodeDeep(data).deepBitmap, "\(format)")
        #expect(DepthFixtures.maxDifference(decoded, deep) <= worst, "\(format)")
        #expect(DepthFixtures.meanDifference(decoded, deep) <= mean, "\(format)")
    }

    #if AVIF
        @Test("AVIF writes deep pixels at 10 bits; lossless ones come back within half a 10-bit level")
        func avifLosslessRoundTrip() throws {
            for trip in try Self.losslessRoundTrips(.avif) {
                let session = try AVIFDecoderSession(data: trip.data, maxPixelCount: .max, maxFrameCount: 1)
                #expect(session.bitDepth == 10)
                let decoded = try #require(trip.decoded.deepBitmap)
                // Half of 65535 / 1023, rounded up.
                #expect(DepthFixtures.maxDifference(decoded, trip.source) <= 33)
                #expect(trip.decoded.hasAlpha == trip.source.containsTransparency)
            }
        }

        @Test("an AVIF without deep pixels is still written at 8 bits")
        func avifEightBitStaysEightBit() throws {
            let image = try ImageCodersManager.shared.decode(
                Fixtures.data("png/rgba8.png"), options: ImageDecodeOptions())
            let data = try Self.encode(image, .avif)
            #expect(try AVIFDecoderSession(data: data, maxPixelCount: .max, maxFrameCount: 1).bitDepth == 8)
        }
    #endif

    #if JPEGXL
        @Test("JPEG XL writes deep pixels at 16 bits and lossless gives them back bit for bit")
        func jpegXLLosslessRoundTripIsExact() throws {
            for trip in try Self.losslessRoundTrips(.jpegXL) {
                #expect(trip.decoded.deepBitmap == trip.source)
                #expect(trip.decoded.hasAlpha == trip.source.containsTransparency)
            }
            let fixture = try DepthFixtures.decodeDeep(DepthFixtures.data("rgb16.jxl"))
            let data = try Self.encode(fixture, .jpegXL, lossless: true)
            #expect(try DepthFixtures.decodeDeep(data).deepBitmap == fixture.deepBitmap)
        }

        @Test("gray deep pixels are written as 16-bit gray JPEG XL and come back exactly")
        func jpegXLGrayRoundTrip() throws {
            let image = try DepthFixtures.decodeDeep(DepthFixtures.data("graya16.png"))
            var options = ImageEncodeOptions()
            options.lossless = true
            options.writesGrayscale = true
            let data = try ImageCodersManager.shared.encode(image, as: .jpegXL, options: options)
            #expect(try DepthFixtures.decodeDeep(data).deepBitmap == image.deepBitmap)
        }

        #if ColorManagement
            @Test("a deep JPEG XL with an ICC profile is converted to sRGB at 16 bits")
            func jpegXLProfileIsConvertedAtSixteenBits() throws {
                let profile = try Fixtures.data("color/adobe-rgb.icc")
                let deep = try DepthFixtures.pattern(PixelSize(width: 13, height: 9), alpha: true)
                var metadata = ImageMetadata()
                metadata.iccProfile = profile
                let data = try Self.encode(Self.image(deep, .jpegXL, metadata: metadata), .jpegXL, lossless: true)
                let decoded = try DepthFixtures.decodeDeep(data)
                let expected = try #require(DeepSRGBConversion.converted(deep, from: profile))
                #expect(decoded.deepBitmap == expected)
                #expect(decoded.metadata.iccProfile == nil)
            }
        #endif
    #endif

    #if HEIC
        @Test("HEIC is written at 8 bits even from deep pixels")
        func heicEncodesEightBits() throws {
            let deep = try DepthFixtures.gradient(PixelSize(width: 64, height: 48))
            let data = try Self.encode(Self.image(deep, .heic), .heic)
            let decoded = try DepthFixtures.decodeDeep(data)
            #expect(decoded.deepBitmap == nil)
            #expect(decoded.bitmap.size == deep.size)
        }
    #endif
}
