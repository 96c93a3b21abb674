import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's `watermark_text`: text drawn with FreeType in the service's font, black, and
/// placed by `wm`.
@Suite("Service processing: watermark_text")
struct WatermarkTextTests {
    typealias Support = ProWatermarkSupport

    static func drawn(_ text: String) throws -> ImageBitmap {
        let font = try #require(FileManager.default.contents(atPath: ServiceConfiguration().watermarkFont))
        return try TextWatermark(font: font, pixelLimit: 10_000_000).rendered(text)
    }

    /// Pixels darker than mid-grey.
    static func dark(_ pixel: RGBA8) -> Bool { Int(pixel.r) + Int(pixel.g) + Int(pixel.b) < 384 }

    @Test func textPutsDarkPixelsWhereTheGravityPlacesIt() async throws {
        try await withOrigin { origin in
            origin.register(
                path: "/white.png", body: try Support.flat(200, 100, Support.white), contentType: "image/png")
            let source = origin.url("/white.png").absoluteString
            let text = Support.encoded("Hello")
            try await withImageService(Support.configuration()) { service in
                let corner = try #require(
                    try await Support.image(service, "/_/wm:1:nowe/wmt:\(text)/plain/\(source)@png"))
                let box = try #require(Support.box(corner, where: Self.dark))
                // "Hello" at 16 pixels: a few dozen pixels wide, one line high, in the top-left corner.
                #expect(box.0 <= 3 && box.1 <= 6 && box.2 >= 25 && box.2 < 60 && box.3 < 20, "\(box)")
                let centred = try #require(try await Support.image(service, "/_/wm:1/wmt:\(text)/plain/\(source)@png"))
                let middle = try #require(Support.box(centred, where: Self.dark))
                #expect(middle.0 > 60 && middle.2 < 140 && middle.1 > 35 && middle.3 < 65, "\(middle)")
            }
        }
    }

    @Test func longerTextAndMoreLinesMakeALargerMark() throws {
        let short = try Self.drawn("Hi")
        let long = try Self.drawn("Hi there, longer")
        let twoLines = try Self.drawn("Hi\nthere")
        #expect(long.width > short.width * 3 && long.height == short.height)
        #expect(twoLines.height > short.height * 3 / 2)
        // Black, antialiased: full coverage and partial coverage both, on transparency.
        let alphas = Set((0..<long.height).flatMap { y in (0..<long.width).map { long[$0, y].a } })
        #expect(alphas.contains(0) && alphas.contains(255) && alphas.count > 10)
        #expect((0..<long.width).allSatisfy { long[$0, long.height / 2].r == 0 })
    }

    @Test func markupTagsAreDroppedAndEntitiesDecoded() throws {
        #expect(TextWatermark.plainText("<span foreground=\"red\"><b>A</b></span> &amp; B") == "A & B")
        #expect(TextWatermark.plainText("a < b &lt; c &#65;&#x42; &bogus;") == "a < b < c AB &bogus;")
        #expect(TextWatermark.plainText("tab\there\r\nline\u{7}") == "tab\there\nline")
        #expect(try Self.drawn("<b>Hi</b>").size == (try Self.drawn("Hi")).size)
    }

    @Test func aFontThatCannotBeReadFailsTheRequestSayingSo() async throws {
        try await withOrigin { origin in
            origin.register(path: "/white.png", body: try Support.flat(20, 20, Support.white), contentType: "image/png")
            let source = origin.url("/white.png").absoluteString
            let configuration = Support.configuration { $0.watermarkFont = "/nonexistent/font.ttf" }
            try await withImageService(configuration) { service in
                let response = await service.respond(
                    to: ServiceRequest(path: "/_/wm:1/wmt:\(Support.encoded("Hi"))/plain/\(source)@png"))
                #expect(response.status == 500)
                #expect(String(decoding: response.body, as: UTF8.self).contains("/nonexistent/font.ttf"))
            }
        }
        // A file that is no font.
        let notAFont = TextWatermark(font: Data("not a font".utf8), pixelLimit: 1000)
        #expect(throws: ServiceError.self) { try notAFont.rendered("Hi") }
    }

    @Test func textBeyondTheLimitsIsABadRequest() throws {
        let giant = String(repeating: "W", count: ProcessingOptions.CustomWatermark.maximumTextLength + 1)
        let error = #expect(throws: ServiceError.self) {
            try ProcessingOptions(segments: ["wmt:" + Support.encoded(giant)])
        }
        #expect(error?.status == 400)
        // Within the length but over the pixel limit.
        let font = try #require(FileManager.default.contents(atPath: ServiceConfiguration().watermarkFont))
        let small = TextWatermark(font: font, pixelLimit: 2000)
        let tooLarge = #expect(throws: ServiceError.self) { try small.rendered(String(repeating: "W", count: 200)) }
        #expect(tooLarge?.status == 400)
        #expect(throws: ServiceError.self) { try ProcessingOptions(segments: ["wmt:" + Support.encoded("a") + "!"]) }
    }
}
