import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's `best` format (`format:best`, the `.best` extension, `IMGPROXY_BEST_FORMAT_*`),
/// free here: the result written in several candidate formats, the smallest kept.
@Suite("Service processing: best format")
struct BestFormatTests {
    /// Flat colour blocks, as a logo or a chart is.
    static func graphic(width: Int = 240, height: Int = 160) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: RGBA8(r: 250, g: 250, b: 250, a: 255))
        for y in 20..<80 { for x in 20..<120 { bitmap[x, y] = RGBA8(r: 200, g: 30, b: 40, a: 255) } }
        for y in 90..<150 { for x in 100..<220 { bitmap[x, y] = RGBA8(r: 20, g: 60, b: 180, a: 255) } }
        return bitmap
    }

    /// Runs the producer as the service does after choosing `candidates` for `best`.
    static func produceBest(
        _ data: Data, _ segments: [String] = [], candidates: [ImageFormat],
        configure: (inout ServiceConfiguration) -> Void = { _ in }
    ) throws -> ProcessedResult {
        var options = try ProcessingOptions(segments: segments + ["f:best"])
        options.bestFormats = candidates
        var configuration = ServiceConfiguration()
        configure(&configuration)
        return try ResultProducer(untracedWith: configuration, options: options).produce(from: data, format: nil)
    }

    static func format(of result: ProcessedResult) -> ImageFormat { ImageFormat(detecting: result.data) }

    @Test func formatBestAndTheBestExtensionAreParsed() throws {
        let options = try ProcessingOptions(segments: ["f:best"])
        #expect(options.bestFormat && options.format == nil)
        let later = try ProcessingOptions(segments: ["format:best", "ext:png"])
        #expect(!later.bestFormat && later.format == .png)
        #expect(try ProcessingOptions(segments: ["f:png", "f:best"]).format == nil)
    }

    @Test func complexitySeparatesGraphicsFromPhotos() {
        #expect(BestFormat.complexity(of: Self.graphic()) < 2.5)
        #expect(BestFormat.complexity(of: AutoqualityTests.photo()) > 5.5)
        #expect(BestFormat.complexity(of: ImageBitmap(width: 1, height: 1, fill: .white)) == 0)
    }

    @Test func aFlatGraphicIsWrittenLosslessly() throws {
        let source = try HandlingOptionsTests.png(Self.graphic())
        let result = try Self.produceBest(source, candidates: [.jpeg, .png, .gif, .webp])
        let format = Self.format(of: result)
        #expect(format == .png || format == .webp, "\(format)")
        #expect(result.contentType == format.mimeType)
        // Lossless: every pixel as it was.
        #expect(try HandlingOptionsTests.decoded(result.data).pixels == Self.graphic().pixels)
    }

    @Test func aPhotoIsWrittenLossilyInTheSmallestCandidate() throws {
        let source = try AutoqualityTests.photoPNG()
        let result = try Self.produceBest(source, ["w:300"], candidates: [.jpeg, .png, .webp])
        let format = Self.format(of: result)
        #expect(format == .jpeg || format == .webp, "\(format)")
        #expect(result.contentType == format.mimeType)
        for candidate in [ImageFormat.jpeg, .webp] {
            let alone = try HandlingOptionsTests.produce(source, ["w:300"], format: candidate)
            #expect(result.data.count <= alone.data.count, "\(candidate)")
        }
    }

    @Test func aSmoothPhotoScoringAsSimpleIsNotSentLargerThanItsLossyFilesNorAsGIF() throws {
        // A smooth gradient of thousands of colours: below the complexity threshold, like a
        // downscaled photograph of sky, but a lossless file of it is many times a lossy one.
        var smooth = ImageBitmap(width: 300, height: 200, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        for y in 0..<200 {
            for x in 0..<300 {
                smooth[x, y] = RGBA8(
                    r: UInt8(x * 255 / 299), g: UInt8(y * 255 / 199), b: UInt8((x + y) * 255 / 498), a: 255)
            }
        }
        #expect(BestFormat.complexity(of: smooth) < BestFormatSettings().complexityThreshold)
        #expect(!BestFormat.fitsPalette(smooth))
        let source = try HandlingOptionsTests.png(smooth)
        let result = try Self.produceBest(source, candidates: [.jpeg, .png, .gif, .webp])
        let format = Self.format(of: result)
        #expect(format != .gif)
        for candidate in [ImageFormat.jpeg, .webp] {
            let alone = try HandlingOptionsTests.produce(source, [], format: candidate)
            #expect(result.data.count <= alone.data.count, "\(candidate)")
        }
    }

    @Test func anImageOfAFewColoursFitsGIFsPaletteAndAPhotoDoesNot() {
        #expect(BestFormat.fitsPalette(Self.graphic()))
        #expect(!BestFormat.fitsPalette(AutoqualityTests.photo()))
    }

    @Test func anAnimationStaysAnimated() throws {
        let source = try Data(contentsOf: Fixtures.directory.appendingPathComponent("gif/loop3_delays.gif"))
        let result = try Self.produceBest(source, candidates: [.jpeg, .png, .gif, .webp])
        let format = Self.format(of: result)
        #expect([ImageFormat.gif, .webp, .png].contains(format), "\(format)")
        let image = try ImageCodersManager.shared.decode(result.data, options: ImageDecodeOptions())
        #expect((image.animation?.frameCount ?? 1) > 1)
    }

    @Test func alphaIsKept() throws {
        var bitmap = AutoqualityTests.photo(width: 120, height: 90)
        for y in 0..<45 { for x in 0..<120 { bitmap[x, y] = RGBA8(r: 0, g: 0, b: 0, a: 0) } }
        let result = try Self.produceBest(try HandlingOptionsTests.png(bitmap), candidates: [.jpeg, .png, .webp])
        let format = Self.format(of: result)
        #expect(format != .jpeg)
        let decoded = try HandlingOptionsTests.decoded(result.data)
        #expect(decoded[10, 10].a == 0 && decoded[10, 80].a == 255)
    }

    @Test func attemptsFollowImgproxysRules() {
        let settings = BestFormatSettings()
        let all: [ImageFormat] = [.jpeg, .png, .gif, .webp, .avif]
        let still = BestFormat.attempts(
            candidates: all, hasAlpha: false, animated: false, fitsPalette: true, complexity: 20, pixels: 100,
            settings: settings)
        #expect(still.map(\.format) == [.jpeg, .webp, .avif] && still.allSatisfy { !$0.lossless })
        // A simple image tries the lossless formats first, then the lossy ones: the smallest wins.
        let simple = BestFormat.attempts(
            candidates: all, hasAlpha: false, animated: false, fitsPalette: true, complexity: 1, pixels: 100,
            settings: settings)
        #expect(simple.map(\.format) == [.png, .gif, .webp, .jpeg, .webp, .avif])
        #expect(simple.map(\.lossless) == [true, true, true, false, false, false])
        // GIF would quantise an image of more than 256 colours: not a candidate for it.
        let manyColours = BestFormat.attempts(
            candidates: all, hasAlpha: false, animated: false, fitsPalette: false, complexity: 1, pixels: 100,
            settings: settings)
        #expect(!manyColours.contains { $0.format == .gif })
        let alpha = BestFormat.attempts(
            candidates: all, hasAlpha: true, animated: false, fitsPalette: true, complexity: 20, pixels: 100,
            settings: settings)
        #expect(!alpha.contains { $0.format == .jpeg })
        let animated = BestFormat.attempts(
            candidates: [.jpeg, .png, .gif], hasAlpha: false, animated: true, fitsPalette: false, complexity: 20,
            pixels: 100, settings: settings)
        #expect(animated.map(\.format) == [.png, .gif])
        var limited = settings
        limited.maxResultPixels = 50
        let picked = BestFormat.attempts(
            candidates: all, hasAlpha: false, animated: false, fitsPalette: true, complexity: 20, pixels: 100,
            settings: limited)
        #expect(picked == [.init(format: .webp, lossless: false)])
    }

    @Test func candidatesAreThePreferredFormatsAndTheDetectedOnesAcceptNames() {
        var configuration = ServiceConfiguration()
        let plain = OutputFormats.bestCandidates(accept: nil, configuration: configuration)
        #expect(plain.formats == [.jpeg, .png, .gif] && plain.varies)
        let modern = OutputFormats.bestCandidates(accept: "image/avif,image/webp,*/*", configuration: configuration)
        #expect(modern.formats == [.jpeg, .png, .gif, .avif, .webp])
        configuration.automaticFormat = false
        let off = OutputFormats.bestCandidates(accept: "image/avif,image/webp", configuration: configuration)
        #expect(off.formats == [.jpeg, .png, .gif] && !off.varies)
    }

    @Test func theResponseNamesTheFormatItsBytesAreInAndVariesOnAccept() async throws {
        try await ImageServiceTests.withService { service, origin, _ in
            origin.register(path: "/photo.png", body: try AutoqualityTests.photoPNG(), contentType: "image/png")
            origin.register(
                path: "/graphic.png", body: try HandlingOptionsTests.png(Self.graphic()), contentType: "image/png")
            for (file, accept) in [
                ("/photo.png", "image/webp,*/*"), ("/photo.png", nil), ("/graphic.png", "image/webp"),
            ] {
                let source = origin.url(file)
                let byOption = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("w:200/f:best", source), accept: accept))
                #expect(byOption.status == 200)
                let type = byOption.header("Content-Type")
                #expect(type == ImageFormat(detecting: byOption.body).mimeType, "\(file) \(accept ?? "-")")
                #expect(byOption.header("Vary") == "Accept")
                let byExtension = await service.respond(
                    to: ServiceRequest(path: ImageServiceTests.path("w:200", source, ext: "best"), accept: accept))
                #expect(byExtension.body == byOption.body)
                #expect(byExtension.header("Content-Type") == type)
            }
            // Without WebP in Accept the photo is never WebP, whatever was cached for another Accept.
            let plain = await service.respond(
                to: ServiceRequest(path: ImageServiceTests.path("w:200/f:best", origin.url("/photo.png"))))
            #expect(ImageFormat(detecting: plain.body) != .webp)
        }
    }

    @Test func resultKeysTellCandidateSetsApart() throws {
        var options = try ProcessingOptions(segments: ["f:best"])
        let source = try #require(URL(string: "http://example.com/a.png"))
        options.bestFormats = [.jpeg, .png]
        let plain = ResultKey.make(options: options, format: nil, source: source)
        options.bestFormats = [.jpeg, .png, .webp]
        let modern = ResultKey.make(options: options, format: nil, source: source)
        #expect(plain != modern && modern.contains("best:jpeg,png,webp"))
        options.bestFormats = []
        #expect(ResultKey.make(options: options, format: nil, source: source) != plain)
    }

    @Test func bestByDefaultAppliesWhenTheURLNamesNoFormat() async throws {
        let configure: (inout ServiceConfiguration) -> Void = { $0.bestFormat.byDefault = true }
        try await ImageServiceTests.withService(configure: configure) { service, origin, _ in
            origin.register(
                path: "/graphic.png", body: try HandlingOptionsTests.png(Self.graphic()), contentType: "image/png")
            let source = origin.url("/graphic.png")
            // A JPEG would be the usual choice for no format and a JPEG-preferring service; best writes it losslessly.
            let chosen = await service.respond(
                to: ServiceRequest(path: ImageServiceTests.path("w:200/q:50", source), accept: "image/webp"))
            let format = ImageFormat(detecting: chosen.body)
            #expect(format == .png || format == .webp)
            #expect(chosen.header("Vary") == "Accept")
            let named = await service.respond(
                to: ServiceRequest(path: ImageServiceTests.path("w:200", source, ext: "jpg")))
            #expect(named.header("Content-Type") == "image/jpeg")
        }
    }

    @Test func skipProcessingAppliesToBestOnlyWhenAllowed() throws {
        let source = try HandlingOptionsTests.png(Self.graphic())
        let processed = try Self.produceBest(source, ["skp:png"], candidates: [.webp])
        #expect(Self.format(of: processed) == .webp)
        let skipped = try Self.produceBest(source, ["skp:png"], candidates: [.webp]) {
            $0.bestFormat.allowsSkips = true
        }
        #expect(skipped.data == source)
    }

    @Test func theServiceReadsImgproxysVariables() throws {
        let environment = [
            "IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD": "7", "IMGPROXY_BEST_FORMAT_MAX_RESOLUTION": "4",
            "IMGPROXY_BEST_FORMAT_BY_DEFAULT": "true", "IMGPROXY_BEST_FORMAT_ALLOW_SKIPS": "1",
        ]
        let options = try ServeOptions(ServeSettings(flags: [:], environment: environment))
        let settings = options.configuration.bestFormat
        #expect(settings.complexityThreshold == 7 && settings.maxResultPixels == 4_000_000)
        #expect(settings.byDefault && settings.allowsSkips)
        #expect(options.notices.isEmpty, "\(options.notices)")
    }
}
