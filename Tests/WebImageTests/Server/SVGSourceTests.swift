#if SVG
    import Foundation
    import Testing
    import WebImageTestOrigin

    @testable import WebImage
    @_spi(Internals) @testable import WebImageServer

    /// SVG sources in the service: answered as sanitised SVG when nothing is asked, rasterised at
    /// the size the result needs when something is, and `svg` as a format for SVG sources only.
    @Suite("Service sources: SVG")
    struct SVGSourceTests {
        static let script = Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" onload="alert(1)">\
            <script>alert(2)</script><rect width="20" height="10" fill="#2060c0"/></svg>
            """.utf8)
        static let sanitised = Data(
            """
            <svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">\
            <rect width="20" height="10" fill="#2060c0"/></svg>
            """.utf8)

        /// `body` with a service and the `script` document served at `/script.svg`.
        static func withSVGService(
            configure: (inout ServiceConfiguration) -> Void = { _ in },
            _ body: (ImageService, TestOrigin, URL) async throws -> Void
        ) async throws {
            try await ImageServiceTests.withService(disk: false, configure: configure) { service, origin, _ in
                origin.register(path: "/script.svg", body: Self.script, contentType: "image/svg+xml")
                try await body(service, origin, origin.url("/script.svg"))
            }
        }

        @Test func anSVGThatAsksForNothingIsAnsweredAsSanitisedSVG() async throws {
            try await Self.withSVGService { service, _, source in
                // Encoder options alone ask for no processing.
                for options in ["", "q:50", "rs:fit:20:10"] {
                    let response = await service.respond(
                        to: ServiceRequest(path: ImageServiceTests.path(options, source)))
                    #expect(response.status == 200 && response.header("Content-Type") == "image/svg+xml", "\(options)")
                    #expect(response.body == Self.sanitised, "\(options)")
                    #expect(response.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
                    #expect(response.header("Content-Disposition") == "inline; filename=\"image.svg\"")
                }
            }
            let unsanitised: (inout ServiceConfiguration) -> Void = { $0.sanitizesSVG = false }
            try await Self.withSVGService(configure: unsanitised) { service, _, source in
                let response = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("", source)))
                #expect(response.body == Self.script)
            }
        }

        @Test func aResizeRendersTheSVGAtTheTargetSizeWithoutEnlarge() async throws {
            try await ImageServiceTests.withService(disk: false) { service, origin, _ in
                let source = origin.url("/fixtures/svg/shapes.svg")
                let response = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("rs:fit:128:96", source)))
                #expect(response.status == 200 && response.header("Content-Type") == "image/png")
                let image = try ImageServiceTests.decode(response)
                let reference = try SVGFixtures.reference("shapes_128x96", PixelSize(width: 128, height: 96))
                #expect(image.bitmap.size == reference.size)
                // Drawn at 128x96 as rsvg-convert draws it, not the 64x48 rendering enlarged.
                let difference = PixelMetrics.maxVisibleDifference(
                    image.bitmap, reference, minimumAlpha: SVGFixtures.minimumAlpha)
                #expect(difference <= SVGFixtures.tolerance, "\(difference)")
                // Smaller works the same way, and the format follows the URL.
                let small = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("rs:fill:16:16", source, ext: "webp")))
                #expect(small.header("Content-Type") == "image/webp")
                #expect(try ImageServiceTests.decode(small).bitmap.size == PixelSize(width: 16, height: 16))
            }
        }

        @Test func aFormatInTheURLRasterisesAtTheDocumentsOwnSize() async throws {
            // One worker: reading the SVG and drawing it take one admission, not two.
            let oneWorker: (inout ServiceConfiguration) -> Void = { $0.workers = 1 }
            try await ImageServiceTests.withService(disk: false, configure: oneWorker) { service, origin, _ in
                let source = origin.url("/fixtures/svg/gradients.svg")
                let response = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("", source, ext: "png")))
                #expect(response.header("Content-Type") == "image/png")
                let reference = try SVGFixtures.reference("gradients", PixelSize(width: 80, height: 60))
                let image = try ImageServiceTests.decode(response)
                #expect(PixelMetrics.maxVisibleDifference(image.bitmap, reference, minimumAlpha: 16) <= 1)
            }
        }

        @Test func svgAsTheFormatAnswersAnSVGSourceAsItIsAndRefusesOthers() async throws {
            try await Self.withSVGService { service, origin, source in
                let svg = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("rs:fit:100:100/bl:3", source, ext: "svg")))
                #expect(svg.status == 200 && svg.body == Self.sanitised)
                let photo = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("f:svg", origin.url(ImageServiceTests.photo))))
                #expect(photo.status == 422)
            }
        }

        @Test func alwaysRasterizeTurnsARequestForNothingIntoAPNGUnlessSVGIsSkipped() async throws {
            let rasterising: (inout ServiceConfiguration) -> Void = { $0.alwaysRasterizesSVG = true }
            try await Self.withSVGService(configure: rasterising) { service, _, source in
                let response = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("", source)))
                #expect(response.header("Content-Type") == "image/png")
                let image = try ImageServiceTests.decode(response)
                #expect(image.bitmap.size == PixelSize(width: 20, height: 10))
                #expect(image.bitmap[5, 5] == RGBA8(r: 0x20, g: 0x60, b: 0xC0, a: 255))
                let skipped = await service.respond(to: ServiceRequest(path: ImageServiceTests.path("skp:svg", source)))
                #expect(skipped.header("Content-Type") == "image/svg+xml" && skipped.body == Self.sanitised)
            }
        }

        @Test func hostileSVGSourcesAreRefusedAndAHugeOneRendersSmall() async throws {
            try await ImageServiceTests.withService(disk: false) { service, origin, _ in
                origin.register(
                    path: "/laughs.svg", body: SVGHostileInputTests.billionLaughs, contentType: "image/svg+xml")
                let huge = SVGFixtures.svg(#"viewBox="0 0 100000 100000""#, #"<rect width="100000" height="100000"/>"#)
                origin.register(path: "/huge.svg", body: huge, contentType: "image/svg+xml")
                let laughs = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("rs:fit:10:10", origin.url("/laughs.svg"))))
                #expect(laughs.status == 422)
                let whole = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("", origin.url("/huge.svg"), ext: "png")))
                #expect((400..<500).contains(whole.status))
                let small = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("rs:fit:100:100", origin.url("/huge.svg"))))
                #expect(small.status == 200)
                let image = try ImageServiceTests.decode(small)
                #expect(image.bitmap.size == PixelSize(width: 100, height: 100))
            }
        }

        @Test func theSwitchesAreFlagsAndVariablesOfOursAndImgproxys() throws {
            let defaults = try ServeOptions(ServeSettings(flags: [:], environment: [:])).configuration
            #expect(defaults.sanitizesSVG && !defaults.alwaysRasterizesSVG)
            for environment in [
                ["WEBIMAGE_SANITIZE_SVG": "false", "WEBIMAGE_ALWAYS_RASTERIZE_SVG": "true"],
                ["IMGPROXY_SANITIZE_SVG": "false", "IMGPROXY_ALWAYS_RASTERIZE_SVG": "true"],
            ] {
                let options = try ServeOptions(ServeSettings(flags: [:], environment: environment))
                #expect(!options.configuration.sanitizesSVG && options.configuration.alwaysRasterizesSVG)
                #expect(options.notices.isEmpty, "\(options.notices)")
            }
            let flags = try ServeOptions(
                ServeSettings(
                    flags: ["sanitize-svg": "false"], environment: ["IMGPROXY_SANITIZE_SVG": "true"]))
            #expect(!flags.configuration.sanitizesSVG)
        }
    }
#endif
