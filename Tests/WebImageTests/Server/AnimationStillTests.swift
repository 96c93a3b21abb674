import Foundation
import Testing
import WebImage

@_spi(Internals) @testable import WebImageServer

/// An animation written to a format that holds one picture keeps its first frame, as imgproxy's does.
@Suite("Service processing: animations saved as stills")
struct AnimationStillTests {
    @Test(arguments: [ImageFormat.jpeg, .bmp, .jpegXL, .avif, .heic, .tiff, .png, .webp, .gif, .ico])
    func anAnimationSavedAsAStillIsItsFirstFrame(format: ImageFormat) throws {
        guard ImageCodersManager.shared.canEncode(to: format) else { return }
        // Four 4×4 frames: red, blue, red, blue.
        let source = try Data(contentsOf: Fixtures.directory.appendingPathComponent("gif/loop3_delays.gif"))
        let options = try ProcessingOptions(segments: ["q:100"])
        let result = try ResultProducer(untracedWith: ServiceConfiguration(), options: options).produce(
            from: source, format: format)
        let image = try ImageCodersManager.shared.decode(result.data, options: ImageDecodeOptions())
        let pixel = image.bitmap[1, 1]
        #expect(pixel.r > 200 && pixel.b < 60, "\(format): \(pixel)")
    }
}
