import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's `/info`: signed like image URLs, answering JSON with the fields its options ask
/// for, header fields from the first bytes of the source, and cached like results.
@Suite("Service info: /info")
struct InfoEndpointTests {
    static func configuration() -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        return configuration
    }

    /// The answer's JSON as a dictionary, after checking it is a 200 with a JSON type.
    static func json(_ response: ServiceResponse, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: Any]
    {
        #expect(
            response.status == 200, "\(String(decoding: response.body, as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(response.headers.first { $0.name == "Content-Type" }?.value == "application/json")
        let object = try JSONSerialization.jsonObject(with: response.body)
        return try #require(object as? [String: Any])
    }

    static func info(_ service: ImageService, _ options: String, _ source: String) async -> ServiceResponse {
        await service.respond(
            to: ServiceRequest(path: "/info/_/\(options)\(options.isEmpty ? "" : "/")plain/\(source)"))
    }

    @Test func theDefaultFieldsAreSizeFormatAndDimensionsAsShown() async throws {
        try await withOrigin { origin in
            let source = origin.url("/fixtures/jpeg/orientation_6.jpg").absoluteString
            let bytes = try Data(contentsOf: Fixtures.directory.appendingPathComponent("jpeg/orientation_6.jpg"))
            try await withImageService(Self.configuration()) { service in
                let json = try Self.json(await Self.info(service, "", source))
                #expect(json["size"] as? Int == bytes.count)
                #expect(json["format"] as? String == "jpeg" && json["mime_type"] as? String == "image/jpeg")
                // Stored 32×64 with orientation 6: shown 64 wide and 32 high.
                #expect(json["width"] as? Int == 64 && json["height"] as? Int == 32)
                #expect(json["orientation"] as? Int == 6)
                // Pixel fields are off by default.
                #expect(json["alpha"] == nil && json["blurhash"] == nil && json["colorspace"] == nil)
            }
        }
    }

    @Test func fieldsTurnedOffAreLeftOut() async throws {
        try await withOrigin { origin in
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString
            try await withImageService(Self.configuration()) { service in
                let json = try Self.json(await Self.info(service, "s:0/f:0/exif:0/iptc:0/xmp:0", source))
                #expect(json.keys.sorted() == ["height", "orientation", "width"])
            }
        }
    }

    @Test func headerFieldsComeFromTheFirstBytesOfALargeSource() async throws {
        // A noisy 2000×1500 JPEG (megabytes), sent 64 KiB every 20 ms.
        var bitmap = ImageBitmap(width: 2000, height: 1500, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        var state: UInt32 = 1
        for y in 0..<1500 {
            for x in 0..<2000 {
                state = state &* 1_664_525 &+ 1_013_904_223
                bitmap[x, y] = RGBA8(r: UInt8(state >> 24), g: UInt8((state >> 16) & 255), b: UInt8(x & 255), a: 255)
            }
        }
        var encode = ImageEncodeOptions()
        encode.compressionQuality = 0.95
        let body = try ImageCodersManager.shared.encode(
            Image(bitmap: bitmap, hasAlpha: false), as: .jpeg, options: encode)
        try await withOrigin { origin in
            origin.register(path: "/large.jpg", body: body, contentType: "image/jpeg")
            let source = origin.url("/large.jpg?drip=65536:20").absoluteString
            try await withImageService(Self.configuration()) { service in
                let json = try Self.json(await Self.info(service, "", source))
                #expect(json["size"] as? Int == body.count)
                #expect(json["width"] as? Int == 2000 && json["height"] as? Int == 1500)
                let downloaded = Self.counter("source_bytes_total", in: service.metricsText())
                #expect(downloaded > 0 && downloaded < body.count / 4, "\(downloaded) of \(body.count) bytes")
                // A field that needs the whole source fetches it whole.
                let whole = try Self.json(await Self.info(service, "cs:1", source))
                #expect(whole["colorspace"] as? String == "srgb")
                #expect(Self.counter("source_bytes_total", in: service.metricsText()) >= downloaded + body.count)
            }
        }
    }

    /// The value of the first metric line whose name ends with `suffix`.
    static func counter(_ suffix: String, in text: String) -> Int {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, parts[0].hasSuffix(suffix), let value = Double(parts[1]) {
                return Int(clamping: value, rounding: .towardZero)
            }
        }
        return -1
    }

    @Test func storedLayoutFieldsSayHowTheSourceKeepsItsPixels() async throws {
        let cases: [(String, String, Int, String)] = [
            ("jpeg/photo_800x600.jpg", "srgb", 3, "uchar"), ("jpeg/gray.jpg", "b-w", 1, "uchar"),
            ("jpeg/cmyk_adobe.jpg", "cmyk", 4, "uchar"), ("png/gray16.png", "grey16", 1, "ushort"),
            ("png/graya8.png", "b-w", 2, "uchar"), ("png/gray8_trns.png", "b-w", 2, "uchar"),
        ]
        try await withOrigin { origin in
            try await withImageService(Self.configuration()) { service in
                for (fixture, colorspace, bands, sample) in cases {
                    let source = origin.url("/fixtures/\(fixture)").absoluteString
                    let json = try Self.json(await Self.info(service, "cs:1/b:1/sf:1/pn:1/a:1:1", source))
                    #expect(json["colorspace"] as? String == colorspace, "\(fixture)")
                    #expect(json["bands"] as? Int == bands && json["sample_format"] as? String == sample, "\(fixture)")
                    #expect(json["pages_number"] as? Int == 1, "\(fixture)")
                    let alpha = try #require(json["alpha"] as? Bool)
                    #expect(alpha == (bands == 2 || bands == 4) || colorspace == "cmyk", "\(fixture)")
                }
            }
        }
    }

    @Test func transparencyIsCheckedPixelByPixel() async throws {
        var opaque = ImageBitmap(width: 8, height: 8, fill: RGBA8(r: 9, g: 9, b: 9, a: 255))
        var oneClear = opaque
        oneClear[7, 7] = RGBA8(r: 9, g: 9, b: 9, a: 254)
        try await withOrigin { origin in
            origin.register(path: "/opaque.png", body: try HandlingOptionsTests.png(opaque), contentType: "image/png")
            origin.register(path: "/clear.png", body: try HandlingOptionsTests.png(oneClear), contentType: "image/png")
            try await withImageService(Self.configuration()) { service in
                let solid = try Self.json(await Self.info(service, "a:1:1", origin.url("/opaque.png").absoluteString))
                #expect(solid["transparent"] as? Bool == false)
                let clear = try Self.json(await Self.info(service, "a:1:1", origin.url("/clear.png").absoluteString))
                #expect(clear["transparent"] as? Bool == true)
                let unchecked = try Self.json(await Self.info(service, "a:1", origin.url("/clear.png").absoluteString))
                #expect(unchecked["transparent"] == nil)
            }
        }
        opaque[0, 0] = RGBA8(r: 0, g: 0, b: 0, a: 255)
    }

    @Test func cropGivesImgproxysRelativeCoordinates() async throws {
        try await withOrigin { origin in
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString
            try await withImageService(Self.configuration()) { service in
                let json = try Self.json(await Self.info(service, "c:200:300:nowe:100:60", source))
                let crop = try #require(json["crop"] as? [String: Double])
                #expect(crop["left"] == 0.125 && crop["top"] == 0.1 && crop["width"] == 0.25 && crop["height"] == 0.5)
                let centred = try Self.json(await Self.info(service, "c:0.5:0.5", source))
                let middle = try #require(centred["crop"] as? [String: Double])
                #expect(middle["left"] == 0.25 && middle["top"] == 0.25)
            }
        }
    }

    @Test func hashsumsAreTheSourcesChecksumsAndAWrongExpectedOneIs422() async throws {
        try await withOrigin { origin in
            let source = origin.url("/fixtures/png/gray8.png").absoluteString
            let bytes = try Data(contentsOf: Fixtures.directory.appendingPathComponent("png/gray8.png"))
            try await withImageService(Self.configuration()) { service in
                let json = try Self.json(await Self.info(service, "chs:md5:sha256", source))
                let sums = try #require(json["hashsums"] as? [String: String])
                #expect(sums["md5"] == InfoReport.hashsum(.md5, of: bytes) && sums["md5"]?.count == 32)
                #expect(sums["sha256"]?.count == 64 && sums["sha1"] == nil)
                let sha256 = try #require(sums["sha256"])
                let right = await Self.info(service, "hs:sha256:\(sha256)", source)
                #expect(right.status == 200)
                let wrong = await Self.info(service, "hs:sha256:\(String(repeating: "0", count: 64))", source)
                #expect(wrong.status == 422)
            }
        }
    }

    @Test func answersAreCachedAndSignedLikeImages() async throws {
        var configuration = Self.configuration()
        let pair = URLSigner.KeyPair(hexKey: "736563726574", hexSalt: "68656C6C6F")!
        configuration.signer = URLSigner(keyPairs: [pair])
        try await withOrigin { origin in
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString
            try await withImageService(configuration) { service in
                let unsigned = await service.respond(to: ServiceRequest(path: "/info/_/cs:1/plain/\(source)"))
                #expect(unsigned.status == 403)
                let path = "/cs:1/plain/\(source)"
                let signed = "/info/" + URLSigner.signature(of: path, with: pair) + path
                let first = await service.respond(to: ServiceRequest(path: signed))
                #expect(first.status == 200)
                let second = await service.respond(to: ServiceRequest(path: signed))
                #expect(second.body == first.body)
                #expect(origin.requestCount(path: "/fixtures/jpeg/photo_800x600.jpg") == 1)
                let etag = try #require(first.headers.first { $0.name == "ETag" }?.value)
                var conditional = ServiceRequest(path: signed)
                conditional.ifNoneMatch = etag
                #expect(await service.respond(to: conditional).status == 304)
            }
        }
    }

    @Test func infoPresetsApplyAndOnlyAllowedOptionsPass() async throws {
        var configuration = Self.configuration()
        configuration.infoPresets = try ProcessingPresets(
            definitions: ["default=s:0", "layout=cs:1/b:1"], forInfo: true)
        configuration.allowedInfoOptions = ["pr", "d"]
        try await withOrigin { origin in
            let source = origin.url("/fixtures/jpeg/gray.jpg").absoluteString
            try await withImageService(configuration) { service in
                let json = try Self.json(await Self.info(service, "pr:layout", source))
                #expect(json["size"] == nil && json["colorspace"] as? String == "b-w" && json["bands"] as? Int == 1)
                let refused = await Self.info(service, "cs:1", source)
                #expect(refused.status == 403)
            }
        }
        #expect(throws: ServiceError.self) { try ProcessingPresets(definitions: ["x=rs:fit:1:1"], forInfo: true) }
    }

    @Test func aSourceThatIsNotAnImageIs422AndAMissingOneIs404() async throws {
        try await withOrigin { origin in
            try await withImageService(Self.configuration()) { service in
                #expect(await Self.info(service, "", origin.url("/garbage/4096").absoluteString).status == 422)
                #expect(await Self.info(service, "", origin.url("/nothing-here.png").absoluteString).status == 404)
                #expect(await Self.info(service, "", "http://10.0.0.1/a.png").status == 403)
            }
        }
    }
}
