import Foundation
import Testing
import WebImage
import WebImageTestOrigin

@_spi(Internals) @testable import WebImageServer

/// imgproxy Pro's chained pipelines: `-` starts a pipeline that runs on the previous one's result,
/// with presets chaining as imgproxy's docs describe.
@Suite("Service processing: chained pipelines")
struct ChainedPipelinesTests {
    static func sizes(_ options: ProcessingOptions) -> [[Int]] {
        options.pipelines.map { [$0.width, $0.height] }
    }

    @Test func aMinusSegmentIsAnOptionSegmentThatStartsAPipeline() throws {
        let path = try ProcessingPath("/_/rs:fit:100:100/-/c:50:50/plain/http://host/a.png")
        #expect(path.optionSegments == ["rs:fit:100:100", "-", "c:50:50"])
        #expect(path.source == "http://host/a.png")
        let options = try ProcessingOptions(segments: path.optionSegments)
        #expect(options.width == 100 && options.crop == nil)
        #expect(options.chained.count == 1 && options.chained[0].crop?.width == 50 && options.chained[0].width == 0)
    }

    @Test func perPipelineOptionsStartOverAndRequestOptionsRunThroughTheChain() throws {
        let options = try ProcessingOptions(segments: ["bl:5", "q:50", "-", "f:png", "sm:0", "-", "q:70", "sh:1"])
        #expect(options.blur == 5 && options.sharpen == 0)
        #expect(options.chained.map(\.blur) == [0, 0] && options.chained.map(\.sharpen) == [0, 1])
        // The last value of a request option wins, wherever it stands; chained pipelines hold none.
        #expect(options.quality == 70 && options.format == .png && !options.stripMetadata)
        #expect(options.chained.allSatisfy { $0.quality == nil && $0.format == nil && $0.stripMetadata })
        // Each pipeline is run with the request's options.
        #expect(options.pipelines.allSatisfy { $0.quality == 70 && $0.format == .png && !$0.stripMetadata })
    }

    @Test func presetsChainAsImgproxysDocsShow() throws {
        // imgproxy's example: the preset's pipelines go to the start of the ones after where it stands.
        let presets = try ProcessingPresets(definitions: [
            "test=width:300/height:300/-/width:200/height:200/-/width:100/height:200"
        ])
        let options = try ProcessingOptions(
            segments: ["width:400", "-", "preset:test", "width:500", "-", "width:600"], presets: presets)
        #expect(Self.sizes(options) == [[400, 0], [500, 300], [600, 200], [100, 200]])
    }

    @Test func aChainedDefaultPresetChainsEveryRequest() throws {
        let presets = try ProcessingPresets(definitions: ["default=q:60/-/sh:1"])
        let options = try ProcessingOptions(segments: ["w:10"], presets: presets)
        #expect(options.width == 10 && options.quality == 60)
        #expect(options.chained.count == 1 && options.chained[0].sharpen == 1)
    }

    @Test func theCanonicalFormKeepsTheChainAndParsesBack() throws {
        let options = try ProcessingOptions(segments: ["rs:fill:50:50", "q:40", "-", "t:10", "-", "bl:2"])
        let canonical = options.canonicalString
        #expect(canonical.contains("/-/rt:fit/t:10") && canonical.hasSuffix("/-/rt:fit/bl:2.0"), "\(canonical)")
        let reparsed = try ProcessingOptions(segments: canonical.split(separator: "/").map(String.init))
        #expect(reparsed == options)
        // The same pipelines in another order make another result.
        let swapped = try ProcessingOptions(segments: ["rs:fill:50:50", "q:40", "-", "bl:2", "-", "t:10"])
        #expect(swapped.canonicalString != canonical)
    }

    @Test func eachPipelineRunsOnThePreviousOnesResult() throws {
        let data = try HandlingOptionsTests.png(ImgproxyGeometryTests.positions(200, 100).bitmap)
        // Crop the top-left 100×100, then the bottom-right 50×50 of that.
        let result = try HandlingOptionsTests.produce(data, ["c:100:100:nowe", "-", "c:50:50:soea"], format: .png)
        let bitmap = try HandlingOptionsTests.decoded(result.data)
        #expect(bitmap.size == PixelSize(width: 50, height: 50))
        #expect(bitmap[0, 0] == RGBA8(r: 50, g: 50, b: 0, a: 255))
        #expect(bitmap[49, 49] == RGBA8(r: 99, g: 99, b: 0, a: 255))
        // A later pipeline's resize sees the earlier result's size: 100×100 fitted into 30×30.
        let resized = try HandlingOptionsTests.produce(data, ["c:100:100", "-", "rs:fit:30:60"], format: .png)
        #expect(try HandlingOptionsTests.decoded(resized.data).size == PixelSize(width: 30, height: 30))
    }

    @Test func aTrimInALaterPipelineCutsTheResizedImage() throws {
        // A 20-pixel white border around a 60×60 black square, scaled by half, then trimmed.
        var bitmap = ImageBitmap(width: 100, height: 100, fill: RGBA8(r: 255, g: 255, b: 255, a: 255))
        for y in 20..<80 { for x in 20..<80 { bitmap[x, y] = RGBA8(r: 0, g: 0, b: 0, a: 255) } }
        let data = try HandlingOptionsTests.png(bitmap)
        let result = try HandlingOptionsTests.produce(data, ["rs:fit:50:50", "-", "t:10"], format: .png)
        let trimmed = try HandlingOptionsTests.decoded(result.data)
        // The scaled square is 30×30; resampling may leave one grey pixel at an edge.
        #expect((30...32).contains(trimmed.width) && (30...32).contains(trimmed.height))
        #expect(trimmed[trimmed.width / 2, trimmed.height / 2] == RGBA8(r: 0, g: 0, b: 0, a: 255))
    }

    @Test func aChainedRequestIsNeverAnsweredWithTheSourceBytes() throws {
        let data = try HandlingOptionsTests.png(ImgproxyGeometryTests.positions(20, 10).bitmap)
        #expect(try HandlingOptionsTests.produce(data, [], format: .png).data == data)
        #expect(try HandlingOptionsTests.produce(data, ["-", "fl:1"], format: .png).data != data)
    }

    @Test func theServiceAnswersAChainedURL() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        try await withOrigin { origin in
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString
            try await withImageService(configuration) { service in
                let response = await PresetsTests.request(service, "/_/rs:fit:200:200/-/c:50:40/plain/\(source)@png")
                #expect(response.status == 200)
                let image = try ImageCodersManager.shared.decode(response.body, options: ImageDecodeOptions())
                #expect(image.bitmap.size == PixelSize(width: 50, height: 40))
            }
        }
    }
}
