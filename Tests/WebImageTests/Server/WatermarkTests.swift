import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy's `watermark`: the service's mark placed by position, offsets, scale and opacity,
/// or tiled; from bytes or a URL.
@Suite("Service processing: watermarks")
struct WatermarkTests {
    static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
    static let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
    static let canvas = ImageBitmap(width: 10, height: 10, fill: white)
    static let mark = ImageBitmap(width: 2, height: 2, fill: blue)

    static func place(_ segment: String, base: Double = 1, on canvas: ImageBitmap = canvas, dpr: Double = 1) throws
        -> ImageBitmap
    {
        let options = try ProcessingOptions(segments: [segment])
        let placement = try #require(options.watermark)
        return try Watermarking(mark: mark, options: placement, baseOpacity: base).applied(to: canvas, dprScale: dpr)
    }

    /// The columns of row `y` the mark covers.
    static func covered(_ bitmap: ImageBitmap, row y: Int) -> [Int] {
        (0..<bitmap.width).filter { bitmap[$0, y] == blue }
    }

    @Test func theArgumentsParseAndAnOpacityOfZeroIsOff() throws {
        let options = try ProcessingOptions(segments: ["wm:0.5:soea:10:0.25:0.2"])
        #expect(
            options.watermark
                == ProcessingOptions.Watermark(
                    opacity: 0.5, position: .anchored(.southEast), x: 10, y: 0.25, scale: 0.2))
        #expect(try ProcessingOptions(segments: ["wm:0"]).watermark == nil)
        #expect(try ProcessingOptions(segments: ["wm:1:re"]).watermark?.position == .replicate)
        #expect(try ProcessingOptions(segments: ["watermark:1:ch"]).watermark?.position == .chess)
        for bad in ["wm", "wm:-1", "wm:nan", "wm:1:middle", "wm:1:ce:x", "wm:1:ce:0:0:-1", "wm:1:ce:0:0:0:0"] {
            #expect(throws: ServiceError.self, "\(bad)") { try ProcessingOptions(segments: [bad]) }
        }
    }

    @Test func anchoredMarksSitByGravityWithOffsetsTimesTheDpr() throws {
        #expect(Self.covered(try Self.place("wm:1:nowe"), row: 0) == [0, 1])
        #expect(Self.covered(try Self.place("wm:1:soea:1:1"), row: 8) == [7, 8])
        // The centre of a spare of 8 is (8 + 1) / 2 = 4.5, rounded half to even: 4.
        #expect(Self.covered(try Self.place("wm:1:ce"), row: 4) == [4, 5])
        #expect(Self.covered(try Self.place("wm:1:we:1", dpr: 2), row: 4) == [2, 3])
        // A negative offset lets the mark hang over the edge.
        let hanging = try Self.place("wm:1:nowe:-1:-1")
        #expect(Self.covered(hanging, row: 0) == [0] && Self.covered(hanging, row: 1).isEmpty)
    }

    @Test func opacityMultipliesTheBaseAndTheMarkBlendsOver() throws {
        let half = try Self.place("wm:0.5:nowe")[0, 0]
        #expect(abs(Int(half.r) - 128) <= 1 && half.b == 255 && half.a == 255)
        let quarter = try Self.place("wm:0.5:nowe", base: 0.5)[0, 0]
        #expect(abs(Int(quarter.r) - 191) <= 1)
        #expect(try Self.place("wm:4:nowe")[0, 0] == Self.blue)  // capped at 1
    }

    @Test func scaleFitsTheMarkIntoAFractionOfTheResultEnlargingIt() throws {
        let scaled = try Self.place("wm:1:nowe:0:0:0.5")
        #expect(Self.covered(scaled, row: 4) == [0, 1, 2, 3, 4] && Self.covered(scaled, row: 5).isEmpty)
    }

    @Test func replicateTilesFromTheCentreAndChessLeavesEveryOtherTileOut() throws {
        let tiled = try Self.place("wm:1:re")
        #expect((0..<10).allSatisfy { Self.covered(tiled, row: $0).count == 10 })
        // Tiles of 4 (2 of mark, 2 of spacing): 3 across, centred, so the mark falls on 0-1, 4-5, 8-9.
        #expect(Self.covered(try Self.place("wm:1:re:2:0"), row: 0) == [0, 1, 4, 5, 8, 9])
        let chess = try Self.place("wm:1:ch")
        #expect(Self.covered(chess, row: 0) == [0, 1, 4, 5, 8, 9])
        #expect(Self.covered(chess, row: 2) == [2, 3, 6, 7])
    }

    static func png(_ bitmap: ImageBitmap) throws -> Data {
        try ImageCodersManager.shared.encode(
            Image(bitmap: bitmap, hasAlpha: true), as: .png, options: ImageEncodeOptions())
    }

    @Test func theServicePlacesItsMarkFromBytesOrAURLAndWithoutOneWmDoesNothing() async throws {
        let markBytes = try Self.png(ImageBitmap(width: 8, height: 8, fill: Self.blue))
        try await withOrigin { origin in
            origin.register(path: "/mark.png", body: markBytes, contentType: "image/png")
            let photo = origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString
            for source in [WatermarkStore.Source.data(markBytes), .url(origin.url("/mark.png").absoluteString), nil] {
                var configuration = ServiceConfiguration()
                configuration.allowsLoopbackSources = true
                configuration.watermark = source
                try await withImageService(configuration) { service in
                    let marked = await service.respond(
                        to: ServiceRequest(path: "/_/w:100/wm:1:nowe/plain/\(photo)@png"))
                    let plain = await service.respond(to: ServiceRequest(path: "/_/w:100/plain/\(photo)@png"))
                    #expect(marked.status == 200 && plain.status == 200)
                    let corner = try ImageCodersManager.shared.decode(marked.body, options: ImageDecodeOptions())
                        .bitmap[1, 1]
                    if source == nil {
                        #expect(marked.body == plain.body)
                    } else {
                        #expect(corner == Self.blue, "\(String(describing: source))")
                    }
                }
            }
            // A mark on an address the guard refuses is refused like a source.
            var guarded = ServiceConfiguration()
            guarded.watermark = .url("http://10.0.0.1/mark.png")
            guarded.allowsLoopbackSources = true
            try await withImageService(guarded) { service in
                let response = await service.respond(to: ServiceRequest(path: "/_/w:100/wm:1/plain/\(photo)@png"))
                #expect(response.status == 403)
            }
        }
    }

    @Test func theSettingsTakeOneMarkAndABaseOpacity() throws {
        let bytes = try Self.png(Self.mark)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("wm-\(UUID().uuidString).png")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromData = try ServeOptions(
            ServeSettings(environment: [
                "IMGPROXY_WATERMARK_DATA": bytes.base64EncodedString(), "IMGPROXY_WATERMARK_OPACITY": "0.4",
            ]))
        #expect(fromData.configuration.watermark == .data(bytes) && fromData.configuration.watermarkOpacity == 0.4)
        #expect(fromData.notices.isEmpty)
        let fromPath = try ServeOptions(ServeSettings(flags: ["watermark-path": file.path], environment: [:]))
        #expect(fromPath.configuration.watermark == .data(bytes))
        let fromURL = try ServeOptions(ServeSettings(environment: ["IMGPROXY_WATERMARK_URL": "https://x/m.png"]))
        #expect(fromURL.configuration.watermark == .url("https://x/m.png"))
        for (flags, environment) in [
            (["watermark-path": file.path], ["IMGPROXY_WATERMARK_URL": "https://x/m.png"]),
            (["watermark-data": "!!!"], [:]), (["watermark-path": "/nonexistent/m.png"], [:]),
            (["watermark-url": "file:///etc/passwd"], [:]), (["watermark-opacity": "2"], [:]),
        ] as [([String: String], [String: String])] {
            #expect(throws: ServeSettingError.self, "\(flags) \(environment)") {
                try ServeOptions(ServeSettings(flags: flags, environment: environment))
            }
        }
    }
}
