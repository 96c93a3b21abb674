#if Server
    import Foundation
    import Testing
    import WebImageTestOrigin

    @testable import WebImage
    @_spi(Internals) @testable import WebImageServer

    /// `preserve_hdr`/`ph`, `--preserve-hdr` and `IMGPROXY_PRESERVE_HDR`: a deep source keeps its
    /// 16 bits through the geometry steps into a PNG result.
    @Suite("Service: preserve_hdr")
    struct PreserveHDRTests {
        /// The result's IHDR bit depth and its pixels decoded with the depth kept.
        private func result(_ options: String, configure: @escaping (inout ServiceConfiguration) -> Void = { _ in })
            async throws -> (depth: UInt8, image: Image)
        {
            try await ImageServiceTests.withService(disk: false, configure: configure) { service, origin, _ in
                let source = origin.url("/fixtures/depth/rgba16.png")
                let response = await service.respond(to: ServiceRequest(path: ImageServiceTests.path(options, source)))
                try #require(response.status == 200, "\(options): \(response.status)")
                let body = response.body
                try #require(body.count > 25)
                let depth = ImageFormat(detecting: body) == .png ? body[body.startIndex + 24] : 0
                return (depth, try DepthFixtures.decodeDeep(body))
            }
        }

        @Test func ph1KeepsSixteenBitsThroughCropFlipAndResize() async throws {
            let (depth, image) = try await result("ph:1/c:12:8/fl:1:0/rs:fill:6:4/f:png")
            #expect(depth == 16)
            let deep = try #require(image.deepBitmap)
            #expect(deep.size == PixelSize(width: 6, height: 4))
            #expect(image.bitmap == deep.reducedToEightBits())
            // Padding and extending keep them too; the long name works as the short one.
            let (paddedDepth, padded) = try await result("preserve_hdr:true/pd:2/ex:1/s:20:20/f:png")
            #expect(paddedDepth == 16 && padded.deepBitmap?.size == PixelSize(width: 24, height: 24))
            #expect(padded.deepBitmap?[0, 0]?.a == 0)
        }

        @Test func withoutPhTheResultIsEightBit() async throws {
            let (depth, image) = try await result("rs:fill:6:4/f:png")
            #expect(depth == 8 && image.deepBitmap == nil)
            // An 8-bit filter drops the deep pixels: the result is 8-bit again.
            let (blurredDepth, _) = try await result("ph:1/bl:2/f:png")
            #expect(blurredDepth == 8)
        }

        #if TIFF
            @Test func reencodedAsTIFFTheSourceSamplesStayExact() async throws {
                let (_, image) = try await result("ph:1/f:tiff")
                #expect(image.format == .tiff)
                #expect(image.deepBitmap == (try DepthFixtures.expected("rgba16.png")))
            }
        #endif

        @Test func theSettingGivesTheDefaultAndPhIsKeyed() async throws {
            let (depth, _) = try await result("rs:fill:8:6/f:png") { $0.preservesHDR = true }
            #expect(depth == 16)
            let (offDepth, _) = try await result("ph:0/rs:fill:8:6/f:png") { $0.preservesHDR = true }
            #expect(offDepth == 8)
            #expect(try ProcessingOptions(segments: ["ph:0"]).canonicalString == "rt:fit")
            #expect(try ProcessingOptions(segments: ["preserve_hdr:1"]).canonicalString == "rt:fit/ph:1")
            for environment in [["WEBIMAGE_PRESERVE_HDR": "1"], ["IMGPROXY_PRESERVE_HDR": "true"]] {
                let options = try ServeOptions(ServeSettings(flags: [:], environment: environment))
                #expect(options.configuration.preservesHDR && options.notices.isEmpty, "\(environment)")
            }
            #expect(try !ServeOptions(ServeSettings(flags: [:], environment: [:])).configuration.preservesHDR)
        }
    }
#endif
