import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// `/info`'s colour and hash fields: the library's analyses of the decoded page, in imgproxy
/// Pro's JSON shapes.
@Suite("Service info: colours and hashes")
struct InfoAnalysisTests {
    /// Left half pure red, right half dark navy, 64×32.
    static let twoColours: ImageBitmap = {
        var bitmap = ImageBitmap(width: 64, height: 32, fill: RGBA8(r: 255, g: 0, b: 0, a: 255))
        for y in 0..<32 { for x in 32..<64 { bitmap[x, y] = RGBA8(r: 10, g: 20, b: 90, a: 255) } }
        return bitmap
    }()

    static func info(_ options: String, _ bitmap: ImageBitmap) async throws -> [String: Any] {
        try await withOrigin { origin in
            origin.register(path: "/image.png", body: try HandlingOptionsTests.png(bitmap), contentType: "image/png")
            return try await withImageService(InfoEndpointTests.configuration()) { service in
                try InfoEndpointTests.json(
                    await InfoEndpointTests.info(service, options, origin.url("/image.png").absoluteString))
            }
        }
    }

    static func channels(_ value: Any?) -> [Int]? {
        guard let object = value as? [String: Int] else { return nil }
        return ["R", "G", "B", "A"].compactMap { object[$0] }
    }

    @Test func dominantColoursOfATwoColourImageAreThoseColours() async throws {
        let json = try await Self.info("dc:1", Self.twoColours)
        let swatches = try #require(json["dominant_colors"] as? [String: Any])
        #expect(Self.channels(swatches["vibrant"]) == [255, 0, 0])
        #expect(Self.channels(swatches["dark_vibrant"]) == [10, 20, 90])
        // Without build_missed, swatches not found are left out; with it, all six are there.
        #expect(swatches["light_muted"] == nil)
        let built = try #require(try await Self.info("dc:1:1", Self.twoColours)["dominant_colors"] as? [String: Any])
        #expect(built.count == 6)
    }

    @Test func paletteAndAverageAreTheImagesColours() async throws {
        var three = Self.twoColours
        for y in 0..<8 { for x in 0..<64 { three[x, y] = RGBA8(r: 250, g: 250, b: 250, a: 255) } }
        let json = try await Self.info("p:8/avg:1", three)
        let palette = try #require(json["palette"] as? [[String: Int]])
        let colours = Set(palette.compactMap { Self.channels($0) })
        let expectedColours: Set<[Int]> = [[255, 0, 0, 255], [10, 20, 90, 255], [250, 250, 250, 255]]
        #expect(colours == expectedColours)
        // 8 white rows (512 pixels) over 24 rows of red and navy (768 pixels each): the mean of
        // each channel, within 1 for rounding.
        let average = try #require(Self.channels(json["average"]))
        let expected: [Double] = [
            (512 * 250 + 768 * 255 + 768 * 10) / 2048, (512 * 250 + 768 * 20) / 2048, (512 * 250 + 768 * 90) / 2048,
        ]
        #expect(average.count == 4 && average[3] == 255)
        for (channel, mean) in zip(average, expected) { #expect(abs(Double(channel) - mean) <= 1, "\(average)") }
    }

    @Test func hashesAreTheLibrarysForTheDecodedImage() async throws {
        let json = try await Self.info("bh:4:3/th:1/ph:1", Self.twoColours)
        let image = Image(bitmap: Self.twoColours, hasAlpha: true)
        let blurHash = try image.blurHash(components: (x: 4, y: 3))
        #expect(json["blurhash"] as? String == blurHash)
        let length = (json["blurhash"] as? String)?.count ?? 0
        #expect(length == 28)  // 4 + 2 × 4 × 3 characters
        #expect(json["thumb_hash"] as? String == image.thumbHashHexString())
        let phash = try #require(json["perceptual_hash"] as? String)
        #expect(phash == image.perceptualHash().hexString && phash.count == 16)
    }

    @Test func aLargeSourceIsAnalysedAtAReducedSize() async throws {
        // 2400×1200 decodes at 512×256 for the hashes: the same answer as the library's on that size.
        var bitmap = ImageBitmap(width: 2400, height: 1200, fill: RGBA8(r: 255, g: 0, b: 0, a: 255))
        for y in 0..<1200 { for x in 1200..<2400 { bitmap[x, y] = RGBA8(r: 10, g: 20, b: 90, a: 255) } }
        let json = try await Self.info("bh:3:3/ph:1", bitmap)
        let small = try ImageCodersManager.shared.decode(
            try HandlingOptionsTests.png(bitmap),
            options: InfoReport.infoDecodeOptions(
                try InfoOptions(segments: ["bh:3:3"]), maxPixels: 1 << 30, maxAnimationBytes: 1 << 30))
        #expect(small.bitmap.size == PixelSize(width: 512, height: 256))
        let blurHash = try small.blurHash(components: (x: 3, y: 3))
        #expect(json["blurhash"] as? String == blurHash)
    }
}
