#if HEIC
    import Foundation
    import Testing
    import WebImageTestOrigin

    @testable import WebImage
    @_spi(Internals) @testable import WebImageServer

    /// `enforce_thumbnail`/`eth` and `--enforce-thumbnail`: HEIC and AVIF sources decoded from
    /// their embedded thumbnail.
    @Suite("Service sources: enforce_thumbnail")
    struct EnforceThumbnailTests {
        @Test(arguments: ["heic/thumbnail.heic", "avif/thumbnail.avif"])
        func eth1ResizesTheThumbnailAndChangesTheResult(fixture: String) async throws {
            try await ImageServiceTests.withService(disk: false) { service, origin, _ in
                let source = origin.url("/fixtures/" + fixture)
                let main = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("f:png", source)))
                let thumbnail = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("eth:1/f:png", source)))
                #expect(main.status == 200 && thumbnail.status == 200)
                let mainImage = try ImageServiceTests.decode(main)
                let thumbnailImage = try ImageServiceTests.decode(thumbnail)
                #expect(mainImage.width == 256 && mainImage.height == 192)
                #expect(thumbnailImage.width == 64 && thumbnailImage.height == 48)
                // Sizes are planned on the thumbnail: fill crops it, not the main image.
                let filled = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("eth:1/rs:fill:32:32/f:png", source)))
                let filledImage = try ImageServiceTests.decode(filled)
                #expect(filledImage.width == 32 && filledImage.height == 32)
            }
        }

        @Test func theSettingGivesTheDefaultAndEthIsKeyed() async throws {
            let configure: (inout ServiceConfiguration) -> Void = { $0.enforcesThumbnail = true }
            try await ImageServiceTests.withService(disk: false, configure: configure) { service, origin, _ in
                let source = origin.url("/fixtures/heic/thumbnail.heic")
                // Not passed through: the source holds more than the thumbnail.
                let plain = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("", source)))
                let plainImage = try ImageServiceTests.decode(plain)
                #expect(plainImage.width == 64)
                let main = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("eth:0", source)))
                let mainInfo = try ImageCodersManager.shared.imageInfo(for: main.body)
                #expect(mainInfo.width == 256)
            }
            #expect(try ProcessingOptions(segments: ["eth:0"]).canonicalString == "rt:fit")
            #expect(try ProcessingOptions(segments: ["enforce_thumbnail:1"]).canonicalString == "rt:fit/eth:1")
            for environment in [["WEBIMAGE_ENFORCE_THUMBNAIL": "1"], ["IMGPROXY_ENFORCE_THUMBNAIL": "true"]] {
                let options = try ServeOptions(ServeSettings(flags: [:], environment: environment))
                #expect(options.configuration.enforcesThumbnail && options.notices.isEmpty, "\(environment)")
            }
            #expect(try !ServeOptions(ServeSettings(flags: [:], environment: [:])).configuration.enforcesThumbnail)
        }
    }
#endif
