import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's `watermark_url`: a request's own mark, fetched under the source policy, kept
/// decoded, placed by `wm`.
@Suite("Service processing: watermark_url")
struct WatermarkURLTests {
    typealias Support = ProWatermarkSupport

    @Test func aURLMarkSitsWhereTheGravitySaysInItsOwnColours() async throws {
        try await withOrigin { origin in
            let (source, mark) = try Support.whiteSourceAndRedMark(on: origin)
            try await withImageService(Support.configuration()) { service in
                let corner = try #require(
                    try await Support.image(service, "/_/wm:1:nowe/wmu:\(mark)/plain/\(source)@png"))
                #expect(Support.box(corner) { $0 == Support.red }.map { [$0.0, $0.1, $0.2, $0.3] } == [0, 0, 3, 3])
                #expect(corner[4, 4] == Support.white)
                let opposite = try #require(
                    try await Support.image(service, "/_/watermark:1:soea/watermark_url:\(mark)/plain/\(source)@png"))
                #expect(
                    Support.box(opposite) { $0 == Support.red }.map { [$0.0, $0.1, $0.2, $0.3] } == [16, 16, 19, 19])
                // Without `wm` the URL places nothing.
                let unmarked = try #require(try await Support.image(service, "/_/wmu:\(mark)/plain/\(source)@png"))
                #expect(Support.box(unmarked) { $0 != Support.white } == nil)
            }
        }
    }

    @Test func eachChainedPipelinePlacesItsOwnMark() async throws {
        try await withOrigin { origin in
            origin.register(path: "/white.png", body: try Support.flat(20, 20, Support.white), contentType: "image/png")
            origin.register(path: "/red.png", body: try Support.flat(4, 4, Support.red), contentType: "image/png")
            origin.register(path: "/blue.png", body: try Support.flat(4, 4, Support.blue), contentType: "image/png")
            let source = origin.url("/white.png").absoluteString
            let red = Support.encoded(origin.url("/red.png").absoluteString)
            let blue = Support.encoded(origin.url("/blue.png").absoluteString)
            try await withImageService(Support.configuration()) { service in
                let path = "/_/wm:1:nowe/wmu:\(red)/-/wm:1:soea/wmu:\(blue)/plain/\(source)@png"
                let result = try #require(try await Support.image(service, path))
                #expect(
                    result[0, 0] == Support.red && result[19, 19] == Support.blue && result[10, 10] == Support.white)
            }
        }
    }

    @Test func aMarkIsFetchedOnceForTwoRequests() async throws {
        try await withOrigin { origin in
            let (source, mark) = try Support.whiteSourceAndRedMark(on: origin)
            try await withImageService(Support.configuration()) { service in
                _ = try await Support.image(service, "/_/w:20/wm:1:nowe/wmu:\(mark)/plain/\(source)@png")
                _ = try await Support.image(service, "/_/w:10/wm:1:soea/wmu:\(mark)/plain/\(source)@png")
                #expect(origin.requestCount(path: "/red.png") == 1)
                #expect(service.watermarks.cache.count == 1)
            }
        }
    }

    @Test func aMarkTheSourcePolicyRefusesIsRefusedLikeASource() async throws {
        try await withOrigin { origin in
            origin.register(
                path: "/sources/white.png", body: try Support.flat(20, 20, Support.white), contentType: "image/png")
            origin.register(path: "/marks/red.png", body: try Support.flat(4, 4, Support.red), contentType: "image/png")
            origin.register(path: "/marks/text", body: Data("not an image".utf8), contentType: "image/png")
            let source = origin.url("/sources/white.png").absoluteString
            let allowed = origin.url("/sources/").absoluteString
            let statuses: [(ServiceConfiguration, String, Int)] = [
                // Not among the allowed sources.
                (
                    Support.configuration { $0.allowedSourcePrefixes = [allowed] },
                    origin.url("/marks/red.png").absoluteString, 403
                ),
                // On an address the guard refuses.
                (Support.configuration(), "http://10.0.0.1/red.png", 403),
                (Support.configuration(), "file:///etc/passwd", 400),
                // Missing at the origin, as a missing source is.
                (Support.configuration(), origin.url("/marks/missing.png").absoluteString, 404),
                // Not an image.
                (Support.configuration(), origin.url("/marks/text").absoluteString, 422),
            ]
            for (configuration, markURL, status) in statuses {
                try await withImageService(configuration) { service in
                    let path = "/_/wm:1/wmu:\(Support.encoded(markURL))/plain/\(source)@png"
                    let response = await service.respond(to: ServiceRequest(path: path))
                    #expect(response.status == status, "\(markURL)")
                }
            }
        }
    }

    @Test func aMarkURLThatIsNotBase64IsABadRequest() async throws {
        try await withImageService(Support.configuration()) { service in
            for bad in ["wmu:!!!", "wmu:%%", "watermark_url:a:b", "wmu:_w"] {
                let response = await service.respond(
                    to: ServiceRequest(path: "/_/wm:1/\(bad)/plain/http://127.0.0.1:1/a.png@png"))
                #expect(response.status == 400, "\(bad)")
            }
        }
    }

    @Test func theMarkCacheKeepsAtMostItsCountAndBytesDroppingTheLeastRecentlyUsed() {
        let mark = ImageBitmap(width: 2, height: 2, fill: Support.red)
        let cache = WatermarkCache(countLimit: 2, byteLimit: 40)
        cache.store(mark, forKey: "a")
        cache.store(mark, forKey: "b")
        #expect(cache.mark(forKey: "a") != nil)
        cache.store(mark, forKey: "c")
        #expect(cache.mark(forKey: "b") == nil && cache.mark(forKey: "a") != nil && cache.count == 2)
        // 16 bytes each: a third would pass 40 bytes, so the oldest leaves even under the count.
        let roomy = WatermarkCache(countLimit: 10, byteLimit: 40)
        for key in ["a", "b", "c"] { roomy.store(mark, forKey: key) }
        #expect(roomy.count == 2 && roomy.mark(forKey: "a") == nil)
        roomy.store(ImageBitmap(width: 4, height: 4, fill: Support.red), forKey: "big")
        #expect(roomy.mark(forKey: "big") == nil)
        let none = WatermarkCache(countLimit: 0)
        none.store(mark, forKey: "a")
        #expect(none.count == 0)
    }
}
