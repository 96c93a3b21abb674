import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy's `format_quality`, `pixelate`, `trim`, `skip_processing` and `raw`.
@Suite("Service processing: quality by format, pixelate, trim, skip and raw")
struct HandlingOptionsTests {
    static let photo = "/fixtures/jpeg/photo_800x600.jpg"

    static func produce(_ data: Data, _ segments: [String], format: ImageFormat? = nil) throws -> ProcessedResult {
        let options = try ProcessingOptions(segments: segments)
        return try ResultProducer(untracedWith: ServiceConfiguration(), options: options).produce(
            from: data, format: format)
    }

    static func png(_ bitmap: ImageBitmap) throws -> Data {
        try ImageCodersManager.shared.encode(
            Image(bitmap: bitmap, hasAlpha: true), as: .png, options: ImageEncodeOptions())
    }

    static func decoded(_ data: Data) throws -> ImageBitmap {
        try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions()).bitmap
    }

    @Test func formatQualityWinsOverTheServiceButNotOverQuality() throws {
        let options = try ProcessingOptions(segments: ["fq:jpeg:30:webp:40", "fq:webp:0:png:50"])
        #expect(options.formatQualities == [.jpeg: 30, .png: 50])
        let source = try Data(contentsOf: Fixtures.directory.appendingPathComponent("jpeg/photo_800x600.jpg"))
        let low = try Self.produce(source, ["w:200", "fq:jpg:30"], format: .jpeg).data
        let lowByQuality = try Self.produce(source, ["w:200", "q:30"], format: .jpeg).data
        let usual = try Self.produce(source, ["w:200"], format: .jpeg).data
        #expect(low == lowByQuality && low.count < usual.count)
        let both = try Self.produce(source, ["w:200", "fq:jpeg:30", "q:90"], format: .jpeg).data
        #expect(both == (try Self.produce(source, ["w:200", "q:90"], format: .jpeg).data))
        // Only the output's own format counts.
        #expect(try Self.produce(source, ["w:200", "fq:webp:30"], format: .jpeg).data == usual)
    }

    @Test func pixelateAveragesBlocksFromTheTopLeftMirroringPastTheEdge() throws {
        var row = ImageBitmap(width: 3, height: 1, fill: RGBA8(r: 0, g: 0, b: 0, a: 255))
        row[1, 0] = RGBA8(r: 10, g: 0, b: 0, a: 255)
        row[2, 0] = RGBA8(r: 20, g: 0, b: 0, a: 100)
        let two = row.pixelated(block: 2)
        #expect([two[0, 0].r, two[1, 0].r, two[2, 0].r] == [5, 5, 20])
        #expect(two[2, 0].a == 100 && two[0, 0].a == 255)
        let whole = row.pixelated(block: 1000)  // the longer side: one block of three
        #expect([whole[0, 0].r, whole[2, 0].r] == [10, 10] && whole[1, 0].a == 203)  // (255+255+100)/3
        #expect(row.pixelated(block: 1) == row && row.pixelated(block: 0) == row)
        let options = try ProcessingOptions(segments: ["pix:4"])
        #expect(options.pixelate == 4 && options.canonicalString.contains("pix:4"))
    }

    /// A white 20×14 canvas with a 6×6 red square at (5, 3) and one dark speck of noise.
    static func framed() -> ImageBitmap {
        var bitmap = ImageBitmap(width: 20, height: 14, fill: RGBA8(r: 255, g: 255, b: 255, a: 255))
        for y in 3..<9 { for x in 5..<11 { bitmap[x, y] = RGBA8(r: 255, g: 0, b: 0, a: 255) } }
        bitmap[18, 12] = RGBA8(r: 0, g: 0, b: 0, a: 255)
        return bitmap
    }

    @Test func trimFindsTheObjectIgnoringNoiseAndHonoursThresholdColourAndEqualSides() throws {
        let trim = ProcessingOptions.Trim(threshold: 10)
        #expect(Trimming.region(of: Self.framed(), trim) == PixelRect(x: 5, y: 3, width: 6, height: 6))
        var equal = trim
        equal.equalHorizontal = true
        equal.equalVertical = true
        // Left 5 and right 9: 5 from each; top 3 and bottom 5: 3 from each.
        #expect(Trimming.region(of: Self.framed(), equal) == PixelRect(x: 5, y: 3, width: 10, height: 8))
        var faint = ImageBitmap(width: 10, height: 10, fill: RGBA8(r: 255, g: 255, b: 255, a: 255))
        for y in 2..<7 { for x in 2..<7 { faint[x, y] = RGBA8(r: 250, g: 250, b: 250, a: 255) } }
        #expect(Trimming.region(of: faint, trim) == PixelRect(x: 0, y: 0, width: 10, height: 10))
        #expect(
            Trimming.region(of: faint, ProcessingOptions.Trim(threshold: 2))
                == PixelRect(x: 2, y: 2, width: 5, height: 5))
        // A transparent border is trimmed as magenta; a named colour replaces the corner pixel.
        var clear = ImageBitmap(width: 10, height: 10, fill: RGBA8(r: 0, g: 0, b: 0, a: 0))
        for y in 4..<9 { for x in 1..<6 { clear[x, y] = RGBA8(r: 0, g: 0, b: 255, a: 255) } }
        let magenta = ProcessingOptions.Trim(threshold: 10, color: RGBA8(r: 255, g: 0, b: 255, a: 255))
        #expect(Trimming.region(of: clear, magenta) == PixelRect(x: 1, y: 4, width: 5, height: 5))
        let blue = ProcessingOptions.Trim(threshold: 10, color: RGBA8(r: 0, g: 0, b: 255, a: 255))
        #expect(Trimming.region(of: clear, blue) == PixelRect(x: 0, y: 0, width: 10, height: 10))
    }

    @Test func aTrimmedSourceIsPlannedAgainFromWhatIsLeft() throws {
        let data = try Self.png(Self.framed())
        let result = try Self.decoded(try Self.produce(data, ["t:10"], format: .png).data)
        #expect(result.size == PixelSize(width: 6, height: 6) && result[0, 0] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        let scaled = try Self.decoded(try Self.produce(data, ["t:10", "rs:force:3:3"], format: .png).data)
        #expect(scaled.size == PixelSize(width: 3, height: 3) && scaled[1, 1] == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(try ProcessingOptions(segments: ["t:10", "t:"]).trim == nil)
    }

    static func respond(
        _ paths: [(String, String)], configure: (inout ServiceConfiguration) -> Void = { _ in }
    ) async throws -> ([ServiceResponse], [Data]) {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configure(&configuration)
        return try await withOrigin { origin in
            origin.register(path: "/note.txt", body: Data("not an image".utf8), contentType: "text/plain")
            return try await withImageService(configuration) { service in
                var responses: [ServiceResponse] = []
                var sources: [Data] = []
                for (options, path) in paths {
                    let source = origin.url(path).absoluteString
                    responses.append(await service.respond(to: ServiceRequest(path: "/_/\(options)/plain/\(source)")))
                    sources.append(
                        path.hasPrefix("/fixtures/")
                            ? try Data(
                                contentsOf: Fixtures.directory.appendingPathComponent(String(path.dropFirst(10))))
                            : Data("not an image".utf8))
                }
                return (responses, sources)
            }
        }
    }

    @Test func skipProcessingAnswersTheSourceUnlessAnotherFormatIsNamed() async throws {
        let (responses, sources) = try await Self.respond([
            ("skp:jpg/w:10", Self.photo), ("skp:jpeg/w:10/f:png", Self.photo), ("skp:png/w:10/f:jpg", Self.photo),
            ("skp:jpg/w:10/f:jpg", Self.photo),
        ])
        #expect(responses.map(\.status) == [200, 200, 200, 200])
        #expect(responses[0].body == sources[0] && responses[0].header("Content-Type") == "image/jpeg")
        #expect(try Self.decoded(responses[1].body).size == PixelSize(width: 10, height: 8))
        #expect(responses[2].body != sources[2] && responses[3].body == sources[3])
        let (configured, _) = try await Self.respond([("w:10", Self.photo)]) {
            $0.skipProcessingFormats = [.jpeg]
            $0.maxSourcePixels = 1000
        }
        #expect(configured.map(\.status) == [422], "a skipped source is still checked")
    }

    @Test func rawAnswersTheSourceUncheckedAndUnprocessed() async throws {
        let (responses, sources) = try await Self.respond([
            ("raw:1/w:10", Self.photo), ("raw:t", "/note.txt"), ("w:10", "/note.txt"),
        ]) { $0.maxSourcePixels = 1000 }
        #expect(responses.map(\.status) == [200, 200, 422])
        #expect(responses[0].body == sources[0] && responses[0].header("Content-Type") == "image/jpeg")
        #expect(responses[1].body == sources[1] && responses[1].header("Content-Type") == "application/octet-stream")
    }

    @Test(arguments: [
        "fq:jpeg", "fq:jpeg:101", "fq:nope:50", "fq", "pix:-1", "pix:1.5", "t:nan", "t:1:zzz", "t:1:ff:maybe",
        "t:1:f:0", "t:1:2:3:4:5", "skp", "skp:nope", "raw:maybe", "raw:1:1",
    ])
    func malformedHandlingOptionsAreBadRequests(segment: String) {
        #expect(throws: ServiceError.self, "\(segment)") { try ProcessingOptions(segments: [segment]) }
    }

    @Test func theNewOptionsSurviveTheCanonicalString() throws {
        let options = try ProcessingOptions(segments: [
            "fq:jpeg:30:webp:40", "t:12.5:fa0:1:0", "pix:3", "skp:png:jpg", "raw:1",
        ])
        let reparsed = try ProcessingOptions(segments: options.canonicalString.split(separator: "/").map(String.init))
        #expect(reparsed == options)
    }
}
