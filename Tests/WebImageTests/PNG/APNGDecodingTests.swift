import Foundation
import Testing

@testable import WebImage

/// APNG frames, delays, disposal and blending against frames composited independently (in
/// floating point from the specification) by Tests/Fixtures/generators/apng.py.
@Suite("APNG: frames composited as the specification says")
struct APNGDecodingTests {
    struct Fixture: Sendable, CustomStringConvertible {
        let name: String
        let size: PixelSize
        let durations: [Double]
        let loopCount: Int
        let hasAlpha: Bool
        var description: String { name }
    }

    static let fixtures = [
        // 1/10 s; 50/1000 s; 0/0 → 0 s → SDWebImage's 0.1 s; 3/0 → 3/100 s.
        Fixture(
            name: "dispose-blend", size: PixelSize(width: 32, height: 24), durations: [0.1, 0.05, 0.1, 0.03],
            loopCount: 3, hasAlpha: true),
        Fixture(
            name: "hidden-default", size: PixelSize(width: 20, height: 16), durations: [0.08, 1], loopCount: 0,
            hasAlpha: false),
        Fixture(
            name: "palette", size: PixelSize(width: 16, height: 16), durations: [0.05, 0.05, 0.05], loopCount: 1,
            hasAlpha: true),
    ]

    static func data(_ name: String) throws -> Data { try Fixtures.data("apng/\(name).png") }

    static func referenceFrames(_ fixture: Fixture) throws -> [ImageBitmap] {
        let bytes = Array(try Fixtures.data("apng/\(fixture.name).frames.rgba"))
        let frameBytes = fixture.size.pixelCount * 4
        return try stride(from: 0, to: bytes.count, by: frameBytes).map { start in
            try ImageBitmap(
                width: fixture.size.width, height: fixture.size.height,
                pixels: Array(bytes[start..<(start + frameBytes)]))
        }
    }

    static func decode(_ data: Data, _ configure: (inout ImageDecodeOptions) -> Void = { _ in }) throws -> Image {
        try ImageCodersManager.shared.decode(data, configure)
    }

    /// Translucent OVER frames round once per blend; everything else is exact.
    @Test(arguments: fixtures)
    func everyFrameMatchesTheSpecificationsCompositing(fixture: Fixture) throws {
        let image = try Self.decode(Self.data(fixture.name))
        let reference = try Self.referenceFrames(fixture)
        let animation = try #require(image.animation)
        #expect(image.format == .png && image.frameCount == reference.count)
        #expect(animation.loopCount == fixture.loopCount && image.hasAlpha == fixture.hasAlpha)
        for (index, expected) in reference.enumerated() {
            let frame = try animation.frame(at: index)
            #expect(PixelMetrics.maxVisibleDifference(frame.bitmap, expected) <= 1, "frame \(index)")
            #expect(abs(frame.duration - fixture.durations[index]) < 1e-9, "frame \(index)")
        }
        #expect(image.bitmap == reference[0])
    }

    @Test(arguments: fixtures)
    func lazyFramesMatchEagerOnesInAnyOrder(fixture: Fixture) throws {
        let data = try Self.data(fixture.name)
        let eager = try Self.decode(data).animation!.allFrames()
        let lazy = try #require(try Self.decode(data) { $0.lazyAnimatedFrames = true }.animation)
        #expect(!lazy.isFullyDecoded)
        for index in (0..<eager.count).reversed() + Array(0..<eager.count) {
            #expect(try lazy.frame(at: index) == eager[index], "frame \(index)")
        }
        let provider = try ImageCodersManager.shared.animatedImageProvider(for: data, options: ImageDecodeOptions())
        #expect(provider.frameCount == eager.count && provider.loopCount == fixture.loopCount)
        #expect(try provider.frame(at: eager.count - 1) == eager.last?.bitmap)
    }

    @Test func infoReportsPNGWithItsFramesAndLoopCount() throws {
        let info = try ImageCodersManager.shared.imageInfo(for: Self.data("dispose-blend"))
        #expect(info.format == .png && info.frameCount == 4 && info.loopCount == 3)
        #expect(info.width == 32 && info.height == 24)
    }

    @Test func firstFrameOnlyAndThumbnailsApplyToEveryFrame() throws {
        let data = try Self.data("dispose-blend")
        let first = try Self.decode(data) { $0.firstFrameOnly = true }
        let reference = try Self.referenceFrames(Self.fixtures[0])
        #expect(first.animation == nil && first.bitmap == reference[0])
        let thumbnail = try Self.decode(data) { $0.thumbnailPixelSize = PixelSize(width: 16, height: 12) }
        #expect(thumbnail.isThumbnail && thumbnail.frameCount == 4)
        let frames = try thumbnail.animation!.allFrames()
        #expect(frames.allSatisfy { $0.bitmap.size == PixelSize(width: 16, height: 12) })
    }

    @Test func aStillPNGIsNotAnAnimation() throws {
        let image = try Self.decode(Fixtures.data("color/display-p3.png"))
        #expect(image.animation == nil)
        #expect(throws: WebImageError.self) {
            try PNGCoder().animatedImageProvider(
                for: Fixtures.data("color/display-p3.png"), options: ImageDecodeOptions())
        }
    }
}
