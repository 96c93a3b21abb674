import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// The settings of the per-request marks: the font, the cache size and whether `watermark_url`
/// is rewritten as sources are.
@Suite("Service settings: per-request watermarks")
struct WatermarkSettingsTests {
    typealias Support = ProWatermarkSupport

    @Test func theFontCacheSizeAndPreprocessingAreReadFromFlagsAndVariables() throws {
        let defaults = try ServeOptions(ServeSettings(environment: [:])).configuration
        #expect(defaults.watermarkFont == "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        #expect(defaults.watermarksCacheSize == 256 && !defaults.watermarkPreprocessesURL)
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
        let imgproxy = try ServeOptions(
            ServeSettings(environment: [
                "IMGPROXY_WATERMARKS_CACHE_SIZE": "0", "IMGPROXY_WATERMARK_PREPROCESS_URL": "true",
                "WEBIMAGE_WATERMARK_FONT": font,
            ]))
        #expect(imgproxy.notices.isEmpty)
        #expect(imgproxy.configuration.watermarksCacheSize == 0 && imgproxy.configuration.watermarkPreprocessesURL)
        #expect(imgproxy.configuration.watermarkFont == font)
        for flags in [["watermark-font": "/nonexistent/font.ttf"], ["watermarks-cache-size": "-1"]] {
            #expect(throws: ServeSettingError.self, "\(flags)") {
                try ServeOptions(ServeSettings(flags: flags, environment: [:]))
            }
        }
    }

    @Test func aMarkURLIsRewrittenOnlyWhenPreprocessingIsOn() async throws {
        try await withOrigin { origin in
            origin.register(path: "/white.png", body: try Support.flat(20, 20, Support.white), contentType: "image/png")
            origin.register(path: "/red.png", body: try Support.flat(4, 4, Support.red), contentType: "image/png")
            let source = origin.url("/white.png").absoluteString
            let base = origin.url("/").absoluteString
            for preprocesses in [false, true] {
                let configuration = Support.configuration {
                    $0.sourceRewriting = SourceURLRewriting(baseURL: base)
                    $0.watermarkPreprocessesURL = preprocesses
                }
                try await withImageService(configuration) { service in
                    let path = "/_/wm:1:nowe/wmu:\(Support.encoded("red.png"))/plain/\(source)@png"
                    let response = await service.respond(to: ServiceRequest(path: path))
                    #expect(response.status == (preprocesses ? 200 : 400))
                }
            }
        }
    }
}
