import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's `watermark_size`, `watermark_rotate` and `watermark_shadow`, and the grammar and
/// canonical forms of the per-request watermark options.
@Suite("Service processing: watermark size, rotation and shadow")
struct WatermarkShapingTests {
    typealias Support = ProWatermarkSupport

    static func shaped(_ segments: [String], _ mark: ImageBitmap, limit: Int = 1_000_000) throws -> ImageBitmap {
        let options = try ProcessingOptions(segments: segments)
        return try WatermarkShaping(
            options: options.customWatermark, placementScale: options.watermark?.scale ?? 0, pixelLimit: limit
        ).shaped(mark)
    }

    /// A 6x2 mark: red, its left column blue.
    static let bar: ImageBitmap = {
        var bar = ImageBitmap(width: 6, height: 2, fill: Support.red)
        bar[0, 0] = Support.blue
        bar[0, 1] = Support.blue
        return bar
    }()

    @Test func theOptionsParseUnderEveryNameAndTheLaterSourceWins() throws {
        let url = Support.encoded("https://example.com/mark.png")
        let options = try ProcessingOptions(segments: [
            "watermark_url:\(url)", "wms:10", "wm_rot:-30.5", "wmsh:2",
        ])
        #expect(options.customWatermark.source == .url("https://example.com/mark.png"))
        #expect(options.customWatermark.width == 10 && options.customWatermark.height == 0)
        #expect(options.customWatermark.rotation == -30.5 && options.customWatermark.shadow == 2)
        let text = try ProcessingOptions(segments: ["wmu:\(url)", "watermark_text:\(Support.encoded("© me"))"])
        #expect(text.customWatermark.source == .text("© me"))
        #expect(try ProcessingOptions(segments: ["wmt:\(Support.encoded("x"))", "wmt:"]).customWatermark.source == nil)
        #expect(try ProcessingOptions(segments: ["watermark_size::20", "wmr:90"]).customWatermark.height == 20)
        #expect(
            try ProcessingOptions(segments: ["watermark_rotate:45", "watermark_shadow:0.5"]).customWatermark.shadow
                == 0.5)
    }

    @Test func theCanonicalFormParsesBackAndTellsMarksApart() throws {
        let segments = [
            "wm:1:soea", "wmt:\(Support.encoded("Hello <b>you</b>"))", "watermark_size:40:0", "wmr:90", "wmsh:1.5",
        ]
        let options = try ProcessingOptions(segments: segments)
        let canonical = options.canonicalString
        #expect(canonical.contains("wmt:\(Support.encoded("Hello <b>you</b>"))/wms:40:0/wmr:90.0/wmsh:1.5"))
        let reparsed = try ProcessingOptions(segments: canonical.split(separator: "/").map(String.init))
        #expect(reparsed == options)
        let other = try ProcessingOptions(segments: ["wm:1:soea", "wmu:\(Support.encoded("https://x/m.png"))"])
        #expect(other.canonicalString != options.canonicalString)
        #expect(other.canonicalString.contains("wmu:\(Support.encoded("https://x/m.png"))"))
        #expect(try ProcessingOptions(segments: ["wmr:0", "wms:0:0", "wmsh:0"]).canonicalString == "rt:fit")
    }

    @Test func hostileValuesAreBadRequests() throws {
        for bad in [
            "wms:99999:1", "wms:-1", "wms:1:2:3", "wms:x", "wmr:nan", "wmr:inf", "wmr:-inf", "wmr:", "wmr:1:2",
            "wmsh:-1", "wmsh:1e9", "wmsh:nan", "wmt:***", "wmu:a:b",
        ] {
            let error = #expect(throws: ServiceError.self, "\(bad)") { try ProcessingOptions(segments: [bad]) }
            #expect(error?.status == 400, "\(bad)")
        }
        // Sizes within the grammar that would make too many pixels.
        let tall = ImageBitmap(width: 1, height: 100, fill: Support.red)
        let tooLarge = #expect(throws: ServiceError.self) { try Self.shaped(["wms:8192"], tall, limit: 1_000_000) }
        #expect(tooLarge?.status == 400)
        let shadowed = #expect(throws: ServiceError.self) { try Self.shaped(["wmsh:100"], tall, limit: 10_000) }
        #expect(shadowed?.status == 400)
        // A huge angle is any angle.
        #expect(try Self.shaped(["wmr:1e300"], Self.bar).width > 0)
    }

    @Test func sizeFitsTheMarkEnlargingItUnlessWmScalesIt() throws {
        let mark = ImageBitmap(width: 4, height: 2, fill: Support.red)
        #expect(try Self.shaped(["wms:8"], mark).size == PixelSize(width: 8, height: 4))
        #expect(try Self.shaped(["wms:0:6"], mark).size == PixelSize(width: 12, height: 6))
        #expect(try Self.shaped(["wms:2:2"], mark).size == PixelSize(width: 2, height: 1))
        #expect(try Self.shaped(["wm:1:ce:0:0:0.5", "wms:8"], mark).size == mark.size)
        let sized = try Self.shaped(["wms:8"], mark)
        #expect(sized[0, 0] == Support.red && sized[7, 3] == Support.red)
    }

    @Test func aQuarterTurnSwapsTheMarksBoxClockwise() throws {
        let turned = try Self.shaped(["wmr:90"], Self.bar)
        #expect(turned.size == PixelSize(width: 2, height: 6))
        // Clockwise: the left column becomes the top row.
        #expect(turned[0, 0] == Support.blue && turned[1, 0] == Support.blue && turned[0, 5] == Support.red)
        let back = try Self.shaped(["wmr:-270"], Self.bar)
        #expect(back.size == turned.size && back[1, 0] == Support.blue)
        #expect(try Self.shaped(["wmr:360"], Self.bar).size == Self.bar.size)
    }

    @Test func anyOtherAngleGrowsTheCanvasWithTransparentCorners() throws {
        let square = ImageBitmap(width: 20, height: 20, fill: Support.red)
        let turned = try Self.shaped(["wmr:45"], square)
        #expect(turned.width >= 28 && turned.width <= 30 && turned.height == turned.width)
        #expect(turned[0, 0].a == 0 && turned[turned.width - 1, turned.height - 1].a == 0)
        #expect(turned[turned.width / 2, turned.height / 2] == Support.red)
        #expect(turned[turned.width / 2, 1].a > 0)
    }

    @Test func aShadowDarkensAroundTheMark() throws {
        let mark = ImageBitmap(width: 4, height: 4, fill: Support.blue)
        let shadowed = try Self.shaped(["wmsh:2"], mark)
        // Three sigmas of margin on each side.
        #expect(shadowed.size == PixelSize(width: 16, height: 16))
        #expect(shadowed[7, 7] == Support.blue)
        let beside = shadowed[5, 7]
        #expect(beside.a > 40 && beside.r == 0 && beside.g == 0 && beside.b == 0)
        #expect(shadowed[0, 0].a < beside.a)
    }

    @Test func theServiceShapesTheMarkItPlaces() async throws {
        try await withOrigin { origin in
            origin.register(path: "/white.png", body: try Support.flat(40, 40, Support.white), contentType: "image/png")
            origin.register(path: "/bar.png", body: try WatermarkTests.png(Self.bar), contentType: "image/png")
            let source = origin.url("/white.png").absoluteString
            let mark = Support.encoded(origin.url("/bar.png").absoluteString)
            try await withImageService(Support.configuration()) { service in
                func box(_ options: String) async throws -> [Int]? {
                    let result = try #require(try await Support.image(service, "/_/\(options)/plain/\(source)@png"))
                    return Support.box(result) { $0 != Support.white }.map { [$0.0, $0.1, $0.2, $0.3] }
                }
                #expect(try await box("wm:1:nowe/wmu:\(mark)") == [0, 0, 5, 1])
                #expect(try await box("wm:1:nowe/wmu:\(mark)/wmr:90") == [0, 0, 1, 5])
                #expect(try await box("wm:1:nowe/wmu:\(mark)/wms:12") == [0, 0, 11, 3])
                // The shadow's margin is part of the mark: the bar moves in by it, darkness around it.
                let shadowed = try #require(
                    try await Support.image(service, "/_/wm:1:nowe/wmu:\(mark)/wmsh:1/plain/\(source)@png"))
                #expect(shadowed[3, 3] == Support.blue && shadowed[5, 3] == Support.red)
                let around = shadowed[4, 2]
                #expect(around.r < 255 && around.r == around.g && around.g == around.b)
                let hostile = await service.respond(
                    to: ServiceRequest(path: "/_/wm:1/wmu:\(mark)/wmr:nan/plain/\(source)@png"))
                #expect(hostile.status == 400)
            }
        }
    }
}
