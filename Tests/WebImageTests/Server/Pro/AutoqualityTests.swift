import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's autoquality (`autoquality`/`aq`, `IMGPROXY_AUTOQUALITY_*`), free here: the
/// quality chosen per image by file size or by DSSIM, with a bounded bisection.
@Suite("Service processing: autoquality")
struct AutoqualityTests {
    /// A photograph-like test image: smooth structure under deterministic grain (complex enough
    /// that JPEG's size and DSSIM move with its quality).
    static func photo(width: Int = 400, height: Int = 300, grain: Int = 40, seed: UInt32 = 7) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = grain == 0 ? 0 : Int(state >> 24) % grain - grain / 2
                let r = x * 160 / width + ((x ^ y) & 0x3F) + noise
                let g = y * 200 / height + (x / 7 + y / 5) % 30 + noise / 2
                let b = 100 + (x * y) % 50 + noise
                bitmap[x, y] = RGBA8(
                    r: UInt8(clamping: max(0, r)), g: UInt8(clamping: max(0, g)), b: UInt8(clamping: max(0, b)), a: 255)
            }
        }
        return bitmap
    }

    static func photoPNG() throws -> Data { try HandlingOptionsTests.png(photo()) }

    static func search(_ segments: [String], format: ImageFormat = .jpeg, counting encodes: inout Int)
        throws -> AutoqualitySearch.Outcome?
    {
        let options = try ProcessingOptions(segments: segments)
        let settings = ServiceConfiguration().autoquality.replacing(options.autoquality)
        let image = Image(bitmap: photo(), hasAlpha: false)
        var count = 0
        defer { encodes = count }
        return try AutoqualitySearch(settings: settings, format: format).run(
            reference: image.bitmap, background: .white,
            encode: { quality throws(WebImageError) in
                count += 1
                var encode = ImageEncodeOptions()
                encode.compressionQuality = Double(quality) / 100
                return try ImageCodersManager.shared.encode(image, as: format, options: encode)
            },
            decode: { data throws(WebImageError) in
                try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions()).bitmap
            })
    }

    static func jpeg(quality: Int) throws -> Data {
        var encode = ImageEncodeOptions()
        encode.compressionQuality = Double(quality) / 100
        return try ImageCodersManager.shared.encode(
            Image(bitmap: photo(), hasAlpha: false), as: .jpeg, options: encode)
    }

    @Test func sizeKeepsTheFileWithinTheTargetAndOneQualityMoreWouldNot() throws {
        let result = try HandlingOptionsTests.produce(try Self.photoPNG(), ["aq:size:20000:10:95"], format: .jpeg)
        #expect(result.data.count <= 20_000)
        #expect(result.contentType == "image/jpeg")
        var encodes = 0
        let outcome = try #require(try Self.search(["aq:size:20000:10:95"], counting: &encodes))
        #expect(outcome.data == result.data)
        #expect(outcome.quality > 10 && outcome.quality < 95)
        #expect(try Self.jpeg(quality: outcome.quality + 1).count > 20_000)
    }

    @Test func sizeSettlesForTheLowestQualityWhenNothingFits() throws {
        var encodes = 0
        let outcome = try #require(try Self.search(["aq:size:100:30:60"], counting: &encodes))
        #expect(outcome.quality == 30)
        #expect(outcome.data == (try Self.jpeg(quality: 30)))
    }

    @Test func dssimMeetsTheTargetWithFewerBytesThanQuality95() throws {
        let source = try Data(contentsOf: Fixtures.directory.appendingPathComponent("jpeg/photo_800x600.jpg"))
        let result = try HandlingOptionsTests.produce(source, ["w:400", "aq:dssim:0.02:10:95:0.002"], format: .jpeg)
        // The pixels encoded: the resized source, as a lossless PNG holds them.
        let encoded = try HandlingOptionsTests.decoded(
            try HandlingOptionsTests.produce(source, ["w:400"], format: .png).data)
        let dssim = try #require(Dissimilarity.dssim(encoded, try HandlingOptionsTests.decoded(result.data)))
        #expect(dssim <= 0.022)
        let best = try HandlingOptionsTests.produce(source, ["w:400", "q:95"], format: .jpeg)
        #expect(result.data.count < best.data.count)
    }

    @Test func dssimPicksTheLowestQualityThatMeetsTheTarget() throws {
        var encodes = 0
        let outcome = try #require(try Self.search(["aq:dssim:0.02:10:95:0"], counting: &encodes))
        let measured = try #require(outcome.dssim)
        #expect(measured <= 0.02)
        // One quality less misses the target (the bisection probed it).
        let lower = try HandlingOptionsTests.decoded(try Self.jpeg(quality: outcome.quality - 1))
        #expect(try #require(Dissimilarity.dssim(Self.photo(), lower)) > 0.02)
    }

    @Test func aSearchWritesAtMostEightFiles() throws {
        for segments in [["aq:size:15000:1:100"], ["aq:dssim:0.01:1:100:0"], ["aq:size:1:1:100"]] {
            var encodes = 0
            let outcome = try #require(try Self.search(segments, counting: &encodes))
            #expect(encodes <= AutoqualitySearch.maxEncodes, "\(segments)")
            #expect(outcome.encodes == encodes)
        }
    }

    @Test func anExhaustedTimeBudgetKeepsTheFirstFile() throws {
        var settings = Autoquality()
        settings.method = .size
        settings.target = 1
        var search = AutoqualitySearch(settings: settings, format: .jpeg)
        search.timeBudget = .zero
        var encodes = 0
        let outcome = try search.run(
            reference: Self.photo(), background: .white,
            encode: { quality throws(WebImageError) in
                encodes += 1
                return Data(count: quality)
            },
            decode: { _ throws(WebImageError) in Self.photo() })
        #expect(encodes == 1 && outcome?.encodes == 1)
    }

    @Test func theMLMethodIsABadRequestThatSaysWhy() {
        #expect {
            _ = try ProcessingOptions(segments: ["aq:ml:0.02"])
        } throws: { error in
            guard let error = error as? ServiceError else { return false }
            return error.status == 400 && error.message.contains("neural network")
        }
    }

    @Test(arguments: [
        "aq:fast", "aq:size:-1", "aq:size:x", "aq:size:nan", "aq:size:inf", "aq:dssim:0.02:0",
        "aq:dssim:0.02:101", "aq:dssim:0.02:90:80", "aq:dssim:0.02:70:80:2", "aq:dssim:0.02:70:80:0.1:x",
        "autoquality:dssim:0.02:70.5",
    ])
    func badArgumentsAreBadRequests(_ segment: String) {
        #expect {
            _ = try ProcessingOptions(segments: [segment])
        } throws: { error in
            (error as? ServiceError)?.status == 400
        }
    }

    @Test func urlArgumentsReplaceTheServicesOneByOne() throws {
        let options = try ProcessingOptions(segments: ["autoquality:dssim::60"])
        var service = Autoquality()
        service.target = 0.01
        let settings = service.replacing(options.autoquality)
        #expect(settings.method == .dssim && settings.target == 0.01 && settings.minQuality == 60)
        #expect(settings.maxQuality == 80 && settings.allowedError == 0.002)
        // The service's AVIF bounds stand until a URL gives its own.
        #expect(Autoquality().qualities(for: .avif) == 60...65)
        #expect(settings.qualities(for: .avif) == 60...65)
        #expect(
            service.replacing(try ProcessingOptions(segments: ["aq:::50:70"]).autoquality).qualities(for: .avif)
                == 50...70)
    }

    @Test func theCanonicalFormParsesBackAndTellsResultsApart() throws {
        let options = try ProcessingOptions(segments: ["w:100", "aq:dssim:0.03::90"])
        let canonical = options.canonicalString
        #expect(canonical.contains("aq:dssim:0.03::90:"), "\(canonical)")
        let reparsed = try ProcessingOptions(segments: canonical.split(separator: "/").map(String.init))
        #expect(reparsed == options)
        #expect(try ProcessingOptions(segments: ["w:100"]).canonicalString != canonical)
        #expect(try ProcessingOptions(segments: ["w:100", "aq:dssim:0.02::90"]).canonicalString != canonical)
    }

    @Test func losslessFormatsIgnoreAutoquality() throws {
        let source = try Self.photoPNG()
        let plain = try HandlingOptionsTests.produce(source, ["w:200"], format: .png)
        let withAutoquality = try HandlingOptionsTests.produce(source, ["w:200", "aq:size:100:1:10"], format: .png)
        #expect(plain.data == withAutoquality.data)
    }

    @Test func dssimOfIdenticalImagesIsZeroAndGrowsWithNoise() throws {
        let clean = Self.photo(grain: 0)
        #expect(Dissimilarity.dssim(clean, clean) == 0)
        var previous = 0.0
        for amplitude in [4, 16, 64] {
            var noisy = clean
            var state: UInt32 = 99
            for y in 0..<noisy.height {
                for x in 0..<noisy.width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let delta = Int(state >> 24) % (2 * amplitude + 1) - amplitude
                    let pixel = noisy[x, y]
                    noisy[x, y] = RGBA8(
                        r: UInt8(clamping: max(0, Int(pixel.r) + delta)),
                        g: UInt8(clamping: max(0, Int(pixel.g) + delta)),
                        b: UInt8(clamping: max(0, Int(pixel.b) + delta)), a: 255)
                }
            }
            let dssim = try #require(Dissimilarity.dssim(clean, noisy))
            #expect(dssim > previous, "amplitude \(amplitude)")
            previous = dssim
        }
        // Images of different sizes are not compared.
        #expect(Dissimilarity.dssim(clean, Self.photo(width: 10, height: 10)) == nil)
    }

    @Test func largeImagesAreComparedAveragedDown() {
        #expect(Dissimilarity.reduction(width: 800, height: 600) == 1)
        #expect(Dissimilarity.reduction(width: 4000, height: 3000) == 4)
        #expect(Dissimilarity.reduction(width: 1, height: 50_000_000) == 1)
    }

    @Test func theServiceReadsImgproxysVariables() throws {
        let environment = [
            "IMGPROXY_AUTOQUALITY_METHOD": "dssim", "IMGPROXY_AUTOQUALITY_TARGET": "0.015",
            "IMGPROXY_AUTOQUALITY_MIN": "60", "IMGPROXY_AUTOQUALITY_MAX": "85",
            "IMGPROXY_AUTOQUALITY_FORMAT_MAX": "avif=70,webp=80", "IMGPROXY_AUTOQUALITY_ALLOWED_ERROR": "0.001",
            "IMGPROXY_AUTOQUALITY_MAX_RESOLUTION": "2.5",
        ]
        let options = try ServeOptions(ServeSettings(flags: [:], environment: environment))
        let settings = options.configuration.autoquality
        #expect(settings.method == .dssim && settings.target == 0.015 && settings.allowedError == 0.001)
        #expect(settings.minQuality == 60 && settings.maxQuality == 85)
        #expect(settings.formatMaxQualities == [.avif: 70, .webp: 80] && settings.formatMinQualities == [.avif: 60])
        #expect(settings.maxResultPixels == 2_500_000)
        #expect(options.notices.isEmpty, "\(options.notices)")
        let flags = try ServeOptions(ServeSettings(flags: ["autoquality-method": "size"], environment: environment))
        #expect(flags.configuration.autoquality.method == .size)
    }

    @Test func theMLMethodInTheEnvironmentIsReadAsDSSIMWithANotice() throws {
        let options = try ServeOptions(
            ServeSettings(flags: [:], environment: ["IMGPROXY_AUTOQUALITY_METHOD": "ml"]))
        #expect(options.configuration.autoquality.method == .dssim)
        #expect(options.notices.contains { $0.contains("IMGPROXY_AUTOQUALITY_METHOD=ml is read as dssim") })
        let model = try ServeOptions(
            ServeSettings(flags: [:], environment: ["IMGPROXY_AUTOQUALITY_JPEG_NET": "/networks/jpeg.onnx"]))
        #expect(
            model.notices.contains { $0.contains("IMGPROXY_AUTOQUALITY_JPEG_NET is ignored (no neural network models") }
        )
    }

    @Test(arguments: [
        ["IMGPROXY_AUTOQUALITY_METHOD": "best"],
        ["IMGPROXY_AUTOQUALITY_MIN": "90", "IMGPROXY_AUTOQUALITY_MAX": "80"],
        ["IMGPROXY_AUTOQUALITY_ALLOWED_ERROR": "2"], ["IMGPROXY_AUTOQUALITY_FORMAT_MIN": "avif"],
    ])
    func badVariablesStopTheServer(_ environment: [String: String]) {
        #expect(throws: ServeSettingError.self) {
            try ServeOptions(ServeSettings(flags: [:], environment: environment))
        }
    }

    @Test func theServiceAppliesItsAutoqualityToLossyResults() async throws {
        let configure: (inout ServiceConfiguration) -> Void = {
            $0.autoquality.method = .size
            $0.autoquality.target = 12_000
            $0.autoquality.minQuality = 5
            $0.autoquality.maxQuality = 95
        }
        try await ImageServiceTests.withService(configure: configure) { service, origin, _ in
            origin.register(path: "/photo.png", body: try Self.photoPNG(), contentType: "image/png")
            let response = await service.respond(
                to: ServiceRequest(path: ImageServiceTests.path("", origin.url("/photo.png"), ext: "jpg")))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "image/jpeg")
            #expect(response.body.count <= 12_000)
        }
    }
}
