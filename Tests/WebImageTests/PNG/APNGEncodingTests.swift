import Foundation
import Testing

@testable import WebImage

/// Animations written as APNG: every frame, delay and the loop count survive a round trip exactly.
@Suite("APNG: encoding animations")
struct APNGEncodingTests {
    static func encode(_ image: Image, _ configure: (inout ImageEncodeOptions) -> Void = { _ in }) throws -> Data {
        try ImageCodersManager.shared.encode(image, as: .png, configure)
    }

    @Test(arguments: ["dispose-blend", "hidden-default", "palette"])
    func everyFrameDelayAndTheLoopCountRoundTripExactly(name: String) throws {
        let source = try APNGDecodingTests.decode(APNGDecodingTests.data(name))
        let data = try Self.encode(source)
        let again = try APNGDecodingTests.decode(data)
        let before = try source.animation!.allFrames()
        let after = try #require(try again.animation?.allFrames())
        #expect(after.map(\.bitmap) == before.map(\.bitmap))
        #expect(zip(after, before).allSatisfy { abs($0.duration - $1.duration) < 0.0005 })
        #expect(again.animation?.loopCount == source.animation?.loopCount)
        // RGBA (colour type 6) when any frame shows transparency, else RGB (2).
        let transparent = before.contains { $0.bitmap.containsTransparency }
        #expect(Array(data)[25] == (transparent ? 6 : 2))
    }

    @Test func laterFramesAreWrittenAsTheRectangleThatChanged() throws {
        let source = try APNGDecodingTests.decode(APNGDecodingTests.data("dispose-blend"))
        let chunks = APNGBadInputTests.chunks(try Self.encode(source))
        let controls = chunks.filter { $0.type == "fcTL" }.map(\.data)
        #expect(controls.count == 4 && chunks.filter { $0.type == "fdAT" }.count == 3)
        let sizes = controls.map { Array($0[4..<12]) }
        #expect(sizes[0] == APNGFrameDecoder.bigEndian(32) + APNGFrameDecoder.bigEndian(24))
        // Frame 1 changed only its 8x8 square at 4,4 over frame 0.
        #expect(Array(controls[1][4..<20]) == [8, 8, 4, 4].flatMap { APNGFrameDecoder.bigEndian(UInt32($0)) })
        #expect(controls.allSatisfy { $0[24] == 0 && $0[25] == 0 }, "dispose none, blend source")
    }

    @Test func firstFrameOnlyWritesAStillPNG() throws {
        let source = try APNGDecodingTests.decode(APNGDecodingTests.data("dispose-blend"))
        let data = try Self.encode(source) { $0.firstFrameOnly = true }
        #expect(!APNGBadInputTests.chunks(data).contains { $0.type == "acTL" })
        #expect(try APNGDecodingTests.decode(data).bitmap == source.bitmap)
    }

    @Test func aGIFBecomesAnAPNGWithEveryFrame() throws {
        let gif = try ImageCodersManager.shared.decode(
            Fixtures.data("gif/loop3_delays.gif"), options: ImageDecodeOptions())
        let again = try APNGDecodingTests.decode(try Self.encode(gif))
        #expect(again.format == .png && again.frameCount == gif.frameCount && gif.frameCount > 1)
        #expect(try again.animation!.allFrames().map(\.bitmap) == gif.animation!.allFrames().map(\.bitmap))
    }

    @Test func delaysPastSixtyFiveSecondsAreWrittenInHundredths() throws {
        let frame = ImageBitmap(width: 2, height: 2) { $0.update(repeating: 255) }
        var other = frame
        other.pixels[0] = 1
        let image = Image(
            bitmap: frame,
            animation: ImageAnimation(
                frames: [ImageFrame(bitmap: frame, duration: 100), ImageFrame(bitmap: other, duration: 0.25)],
                loopCount: 2), hasAlpha: false)
        let again = try APNGDecodingTests.decode(try Self.encode(image))
        #expect(try again.animation!.allFrames().map(\.duration) == [100, 0.25])
        #expect(again.animation?.loopCount == 2 && !again.hasAlpha, "opaque frames are written as RGB")
    }

    @Test func aKeptProfileIsWrittenIntoTheAPNG() throws {
        var source = try APNGDecodingTests.decode(APNGDecodingTests.data("palette"))
        let profile = try Fixtures.data("color/display-p3.icc")
        source.metadata = ImageMetadata(iccProfile: profile)
        var options = ImageDecodeOptions()
        options.convertToSRGB = false
        let again = try ImageCodersManager.shared.decode(try Self.encode(source), options: options)
        #expect(again.metadata.iccProfile == profile && again.frameCount == 3)
    }
}
