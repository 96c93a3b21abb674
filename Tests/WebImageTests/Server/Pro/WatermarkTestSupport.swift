import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// What the per-request watermark tests share: flat PNGs served by the test origin, a service that
/// fetches from it, and the decoded result of a request.
enum ProWatermarkSupport {
    static let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
    static let red = RGBA8(r: 255, g: 0, b: 0, a: 255)
    static let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
    static let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)

    /// `text` base64url-encoded, as `wmu` and `wmt` take it.
    static func encoded(_ text: String) -> String { Data(text.utf8).base64URLEncodedWithoutPadding() }

    static func flat(_ width: Int, _ height: Int, _ colour: RGBA8) throws -> Data {
        try WatermarkTests.png(ImageBitmap(width: width, height: height, fill: colour))
    }

    /// Registers a 20x20 white source at `/white.png` and a 4x4 red mark at `/red.png`: the
    /// source's URL and the mark's, encoded as `wmu` takes it.
    static func whiteSourceAndRedMark(on origin: TestOrigin) throws -> (source: String, mark: String) {
        origin.register(path: "/white.png", body: try flat(20, 20, white), contentType: "image/png")
        origin.register(path: "/red.png", body: try flat(4, 4, red), contentType: "image/png")
        return (origin.url("/white.png").absoluteString, encoded(origin.url("/red.png").absoluteString))
    }

    /// A service fetching from loopback (the test origin), changed by `configure`.
    static func configuration(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configure(&configuration)
        return configuration
    }

    /// The decoded body of a 200, or nil (the status is recorded as an issue).
    static func image(_ service: ImageService, _ path: String) async throws -> ImageBitmap? {
        let response = await service.respond(to: ServiceRequest(path: path))
        #expect(response.status == 200, "\(path): \(String(decoding: response.body, as: UTF8.self))")
        guard response.status == 200 else { return nil }
        return try ImageCodersManager.shared.decode(response.body, options: ImageDecodeOptions()).bitmap
    }

    /// The smallest rectangle holding every pixel `matches` accepts: (minX, minY, maxX, maxY).
    static func box(_ bitmap: ImageBitmap, where matches: (RGBA8) -> Bool) -> (Int, Int, Int, Int)? {
        var found: (Int, Int, Int, Int)?
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where matches(bitmap[x, y]) {
                let box = found ?? (x, y, x, y)
                found = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
            }
        }
        return found
    }
}
