import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy's fallback image: `IMGPROXY_FALLBACK_IMAGE_DATA`/`_PATH`/`_URL`, `_HTTP_CODE` and `_TTL`.
@Suite("Image service: the fallback image")
struct FallbackImageTests {
    static let fallback = Fixtures.directory.appendingPathComponent("png/rgb8.png")

    /// Each path's response from a service with a fallback image that `configure` may adjust.
    static func responses(_ paths: [String], configure: (inout ServiceConfiguration, TestOrigin) -> Void = { _, _ in })
        async throws -> [ServiceResponse]
    {
        try await withOrigin { origin in
            var configuration = ServiceConfiguration()
            configuration.allowsLoopbackSources = true
            configuration.fallbackImage = .data(try Data(contentsOf: Self.fallback))
            configure(&configuration, origin)
            return try await withImageService(configuration) { service in
                var responses: [ServiceResponse] = []
                for path in paths {
                    let full = path.replacingOccurrences(of: "{origin}", with: origin.url("/").absoluteString)
                    responses.append(await service.respond(to: ServiceRequest(path: full)))
                }
                return responses
            }
        }
    }

    @Test func aSourceThatCannotBeFetchedIsAnsweredWithTheFallbackProcessedAsAsked() async throws {
        let responses = try await Self.responses([
            "/_/rs:force:6:4/plain/{origin}fixtures/missing.png@png",
            "/_/rs:force:6:4/plain/{origin}fixtures/png/rgba8.png%3Fstatus%3D503@png",
            "/_/w:5/plain/{origin}fixtures/missing.png@jpg",
        ])
        #expect(responses.map(\.status) == [200, 200, 200])
        let expected = try ResultProducer(
            untracedWith: ServiceConfiguration(), options: ProcessingOptions(segments: ["rs:force:6:4"])
        ).produce(from: Data(contentsOf: Self.fallback), format: .png)
        #expect(responses[0].body == expected.data)
        #expect(try ImageCodersManager.shared.imageInfo(for: responses[0].body).width == 6)
        #expect(responses[1].body == responses[0].body)
        #expect(responses[2].header("Content-Type") == "image/jpeg")
        #expect(try ImageCodersManager.shared.imageInfo(for: responses[2].body).width == 5)
        #expect(responses[0].header("Cache-Control") == "public, max-age=31536000")
    }

    @Test func theStatusAndTTLAreTheFallbacksOwn() async throws {
        let missing = "/_/w:5/plain/{origin}fixtures/missing.png@png"
        let coded = try await Self.responses([missing]) { configuration, _ in
            configuration.fallbackImageStatus = 0
            configuration.fallbackImageTimeToLive = 60
        }
        #expect(coded[0].status == 404 && coded[0].header("Cache-Control") == "public, max-age=60")
        #expect(try ImageCodersManager.shared.imageInfo(for: coded[0].body).width == 5)
        let fixed = try await Self.responses([missing]) { configuration, _ in
            configuration.fallbackImageStatus = 203
            configuration.timeToLive = 30
            configuration.fallbackImageTimeToLive = 60
        }
        // The fallback's TTL only shortens the service's.
        #expect(fixed[0].status == 203 && fixed[0].header("Cache-Control") == "public, max-age=60")
    }

    @Test func onlyFetchFailuresFallBackNotBadURLsOrBadImages() async throws {
        let responses = try await Self.responses([
            "/_/w:nope/plain/{origin}fixtures/missing.png",
            "/_/w:5/plain/{origin}garbage/100@png",
            "/_/w:5/plain/{origin}fixtures/png/rgba8.png@png",
        ])
        #expect(responses.map(\.status) == [400, 422, 200])
        #expect(try ImageCodersManager.shared.imageInfo(for: responses[2].body).width == 5)
    }

    @Test func aFallbackByURLIsFetchedAsASourceIs() async throws {
        let responses = try await Self.responses(["/_/w:6/plain/{origin}fixtures/missing.png@png"]) {
            configuration, origin in
            configuration.fallbackImage = .url(origin.url("/fixtures/png/rgb8.png").absoluteString)
        }
        #expect(responses[0].status == 200)
        #expect(try ImageCodersManager.shared.imageInfo(for: responses[0].body).width == 6)
        // A fallback that cannot be fetched either: the source's error stands.
        let neither = try await Self.responses(["/_/w:6/plain/{origin}fixtures/missing.png@png"]) {
            configuration, origin in
            configuration.fallbackImage = .url(origin.url("/fixtures/also-missing.png").absoluteString)
        }
        #expect(neither[0].status == 404)
    }

    @Test func theSettingsTakeOneImageAStatusAndATTL() throws {
        func configuration(_ flags: [String: String], _ environment: [String: String] = [:]) throws
            -> ServiceConfiguration
        {
            try ServeOptions(ServeSettings(flags: flags, environment: environment)).configuration
        }
        let bytes = try Data(contentsOf: Self.fallback)
        let fromPath = try configuration(["fallback-image-path": Self.fallback.path, "fallback-image-status": "0"])
        #expect(fromPath.fallbackImage == .data(bytes) && fromPath.fallbackImageStatus == 0)
        let fromData = try configuration(
            [:],
            [
                "IMGPROXY_FALLBACK_IMAGE_DATA": bytes.base64EncodedString(), "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "404",
                "IMGPROXY_FALLBACK_IMAGE_TTL": "90",
            ])
        #expect(fromData.fallbackImage == .data(bytes) && fromData.fallbackImageStatus == 404)
        #expect(fromData.fallbackImageTimeToLive == 90)
        #expect(
            try configuration(["fallback-image-url": "https://images.example/f.png"]).fallbackImage
                == .url("https://images.example/f.png"))
        for bad in [
            ["fallback-image-url": "ftp://x/y.png"], ["fallback-image-status": "42"],
            ["fallback-image-status": "600"], ["fallback-image-ttl": "-1"],
            ["fallback-image-path": "/nonexistent/f.png"], ["fallback-image-data": "%%%"],
            ["fallback-image-data": "aGk=", "fallback-image-url": "https://x/y.png"],
        ] {
            #expect(throws: ServeSettingError.self, "\(bad)") { try configuration(bad) }
        }
    }
}
