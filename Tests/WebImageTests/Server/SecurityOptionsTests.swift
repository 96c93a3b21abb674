import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@testable import WebImageServer

/// imgproxy's security options: refused unless the service allows them, and then each replaces
/// the service's limit for its request; and the service-wide result dimension.
@Suite("Service URLs: security options and the result dimension")
struct SecurityOptionsTests {
    static let photo = "/fixtures/jpeg/photo_800x600.jpg"
    static let animation = "/fixtures/gif/loop3_delays.gif"

    static func respond(
        _ configure: (inout ServiceConfiguration) -> Void, _ requests: [(options: String, source: String)]
    ) async throws -> [ServiceResponse] {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configure(&configuration)
        return try await withOrigin { origin in
            try await withImageService(configuration) { service in
                var responses: [ServiceResponse] = []
                for request in requests {
                    let source = origin.url(request.source).absoluteString
                    responses.append(
                        await service.respond(to: ServiceRequest(path: "/_/\(request.options)/plain/\(source)@png")))
                }
                return responses
            }
        }
    }

    static func size(_ response: ServiceResponse) throws -> PixelSize {
        try ImageCodersManager.shared.decode(response.body, options: ImageDecodeOptions()).bitmap.size
    }

    @Test func securityOptionsAreForbiddenUnlessAllowedEvenInAPreset() async throws {
        let presets = try ProcessingPresets(definitions: ["big=msr:100"])
        let responses = try await Self.respond(
            { $0.presets = presets },
            [
                ("msr:100", Self.photo), ("max_src_file_size:1", Self.photo), ("maf:1", Self.animation),
                ("mafr:1", Self.animation), ("mrd:10", Self.photo), ("pr:big", Self.photo), ("w:10", Self.photo),
            ])
        #expect(responses.map(\.status) == [403, 403, 403, 403, 403, 403, 200])
        #expect(String(decoding: responses[0].body, as: UTF8.self).contains("security processing options"))
    }

    @Test func allowedSecurityOptionsReplaceTheServicesLimitsForTheirRequest() async throws {
        let responses = try await Self.respond(
            {
                $0.allowsSecurityOptions = true
                $0.maxSourcePixels = 1000
            },
            [
                ("w:10", Self.photo), ("msr:0.48/w:10", Self.photo), ("msr:0.47/w:10", Self.photo),
                ("msfs:100/w:10", Self.photo), ("msfs:0/w:10/msr:1", Self.photo),
                ("maf:3", Self.animation), ("maf:4", Self.animation), ("mafr:0.000015", Self.animation),
                ("mafr:0.000016", Self.animation), ("mrd:100/msr:1", Self.photo),
            ])
        // maf:3 keeps three of the four frames, as imgproxy does; it refuses nothing.
        #expect(responses.map(\.status) == [422, 200, 422, 422, 200, 200, 200, 422, 200, 200])
        #expect(try Self.size(responses[9]) == PixelSize(width: 100, height: 75))
        let frames = try [5, 6].map {
            try ImageCodersManager.shared.decode(responses[$0].body, options: ImageDecodeOptions()).frameCount
        }
        #expect(frames == [3, 4])
    }

    @Test func theServicesResultDimensionScalesResultsDownAndAnAllowedURLReplacesIt() async throws {
        let responses = try await Self.respond(
            {
                $0.maxResultDimension = 64
                $0.allowsSecurityOptions = true
            }, [("w:400", Self.photo), ("w:400/mrd:200", Self.photo), ("w:400/mrd:0", Self.photo)])
        #expect(responses.map(\.status) == [200, 200, 200])
        #expect(try Self.size(responses[0]) == PixelSize(width: 64, height: 48))
        #expect(try Self.size(responses[1]) == PixelSize(width: 200, height: 150))
        #expect(try Self.size(responses[2]) == PixelSize(width: 400, height: 300))
    }

    @Test func theSettingsComeFromFlagsAndImgproxysVariables() throws {
        let options = try ServeOptions(
            ServeSettings(environment: [
                "IMGPROXY_MAX_RESULT_DIMENSION": "2000", "IMGPROXY_ALLOW_SECURITY_OPTIONS": "true",
                "IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION": "0.5",
            ]))
        #expect(options.configuration.maxResultDimension == 2000)
        #expect(options.configuration.allowsSecurityOptions)
        #expect(options.configuration.maxAnimationFramePixels == 500_000)
        let none = try ServeOptions(
            ServeSettings(
                flags: ["max-result-dimension": "0"], environment: ["IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION": "0"]))
        #expect(none.configuration.maxResultDimension == nil && none.configuration.maxAnimationFramePixels == nil)
        #expect(!none.configuration.allowsSecurityOptions)
        #expect(throws: ServeSettingError.self) {
            try ServeOptions(ServeSettings(flags: ["max-result-dimension": "-1"], environment: [:]))
        }
    }

    @Test(arguments: ["msr:-1", "msr:nan", "msr:1e400", "msfs:-1", "maf:0", "mafr:x", "mrd:-5", "mrd:1:2"])
    func malformedSecurityOptionsAreBadRequests(segment: String) {
        #expect(throws: ServiceError.self) { try ProcessingOptions(segments: [segment]) }
    }
}
