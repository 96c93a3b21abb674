import Foundation
import Testing

@testable import WebImage

/// A still made from an animation shows its first frame, whatever the encoder: stills-only
/// formats keep frame 0, and animated formats show frame 0 first (what a still-only reader takes).
@Suite("A still from an animation is frame 0")
struct StillFromAnimationTests {
    static let colours = [GIFTestColor.red, GIFTestColor.green, GIFTestColor.blue]

    /// A 16×16 GIF of three full frames: red, green, blue.
    static var threeColourGIF: Data {
        var builder = GIFBuilder(width: 16, height: 16)
        builder.colors = colours + [.white]
        builder.frames = (0..<3).map {
            GIFBuilder.Frame(width: 16, height: 16, indices: [UInt8](repeating: UInt8($0), count: 256))
        }
        return builder.data
    }

    /// The centre pixel of the first frame `data` decodes to.
    static func firstFrameColour(_ data: Data) throws -> RGBA8 {
        let decoded = try ImageCodersManager.shared.decode(data) { $0.firstFrameOnly = true }
        return decoded.bitmap[decoded.width / 2, decoded.height / 2]
    }

    /// Frames decoded up front and frames decoded on demand alike. Lossy coders may move a
    /// channel by a few levels; the other frames are 255 levels away.
    @Test(arguments: ImageCodersManager.builtInFormats, [false, true])
    func everyEncoderKeepsFrameZeroOfAGIF(format: ImageFormat, lazyFrames: Bool) throws {
        let image = try ImageCodersManager.shared.decode(Self.threeColourGIF) { $0.lazyAnimatedFrames = lazyFrames }
        #expect(image.animation?.frameCount == 3)
        for firstFrameOnly in [false, true] {
            let data = try ImageCodersManager.shared.encode(image, as: format) { $0.firstFrameOnly = firstFrameOnly }
            let colour = try Self.firstFrameColour(data)
            #expect(
                isClose(colour, GIFTestColor.red, tolerance: 16),
                "\(format) firstFrameOnly \(firstFrameOnly): \(colour)")
        }
    }

    /// Frames without durations (a TIFF's pages, frames made in memory): JPEG XL used to write
    /// them as layers of one frame, so that readers showed the last one.
    @Test(arguments: ImageCodersManager.builtInFormats)
    func framesWithoutDurationsStillShowFrameZero(format: ImageFormat) throws {
        let frames = Self.colours.map { ImageFrame(bitmap: ImageBitmap(width: 16, height: 16, fill: $0), duration: 0) }
        let image = Image(
            bitmap: frames[0].bitmap, format: .tiff, animation: ImageAnimation(frames: frames, loopCount: 0),
            hasAlpha: false)
        let data = try ImageCodersManager.shared.encode(image, as: format) { _ in }
        let colour = try Self.firstFrameColour(data)
        #expect(isClose(colour, GIFTestColor.red, tolerance: 16), "\(format): \(colour)")
        let info = try ImageCodersManager.shared.imageInfo(for: data)
        #expect(info.frameCount == 1 || info.frameCount == 3, "\(format): \(info.frameCount) frames")
    }

    #if JPEGXL
        @Test func jpegXLGivesAFrameWithoutADurationOneHundredMilliseconds() throws {
            #expect(JPEGXLEncoderSession.displayTicks(0) == 100)
            #expect(JPEGXLEncoderSession.displayTicks(0.0004) == 100)
            #expect(JPEGXLEncoderSession.displayTicks(0.02) == 20)
            #expect(JPEGXLEncoderSession.displayTicks(.nan) == 100)
        }
    #endif
}
