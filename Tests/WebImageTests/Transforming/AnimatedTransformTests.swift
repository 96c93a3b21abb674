import Testing

@testable import WebImage

@Suite("Transforming animations")
struct AnimatedTransformTests {
    private func decodeAnimation(lazy: Bool = false) throws -> Image {
        var options = ImageDecodeOptions()
        options.lazyAnimatedFrames = lazy
        let image = try ImageCodersManager.shared.decode(try Fixtures.data("gif/pillow_noise.gif"), options: options)
        try #require(image.frameCount == 3)
        return image
    }

    @Test("Every frame is transformed; frame count, durations and loop count are kept", arguments: [false, true])
    func everyFrame(lazy: Bool) throws {
        let image = try decodeAnimation(lazy: lazy)
        let animation = try #require(image.animation)
        let flip = ImageFlippingTransformer(horizontal: true, vertical: false)
        let result = try flip.transformedImage(image, forKey: "k", animated: true)
        let frames = try #require(result.animation).allFrames()
        #expect(frames.count == 3)
        #expect(result.animation?.loopCount == animation.loopCount)
        for index in 0..<3 {
            let original = try animation.frame(at: index)
            #expect(frames[index].duration == original.duration)
            #expect(frames[index].bitmap == original.bitmap.applyingOrientation(.upMirrored), "frame \(index)")
        }
        #expect(result.bitmap == frames[0].bitmap)
        #expect(result.isTransformed && result.format == .gif)
    }

    @Test("Without animated, an animation is transformed to a still of its first frame")
    func stillWhenNotAnimated() throws {
        let image = try decodeAnimation()
        let result = try ImageResizingTransformer(size: PixelSize(width: 12, height: 10))
            .transformedImage(image, forKey: "k", animated: false)
        #expect(result.animation == nil)
        #expect(result.frameCount == 1)
        #expect(result.bitmap.size == PixelSize(width: 12, height: 10))
    }

    @Test("Frames that would exceed the byte limit are refused before they are all made")
    func byteLimit() throws {
        let image = try decodeAnimation()
        let resize = ImageResizingTransformer(size: PixelSize(width: 100, height: 100))
        #expect {
            try resize.transformedImage(image, forKey: "k", animated: true, maxAnimationByteCount: 100 * 100 * 4 * 2)
        } throws: { error in
            guard (error as? WebImageError)?.code == .imageTooLarge else { return false }
            return true
        }
        let fits = try resize.transformedImage(
            image, forKey: "k", animated: true, maxAnimationByteCount: 100 * 100 * 4 * 3)
        #expect(fits.frameCount == 3)
    }

    @Test("Frames transformed to different sizes are an invalid argument")
    func inconsistentFrames() throws {
        let image = try decodeAnimation()
        final class Counter: Sendable {
            let calls = Locked(0)
        }
        let counter = Counter()
        let growing = ImageClosureTransformer(key: "grow") { input in
            let calls = counter.calls.withLock { value in
                value += 1
                return value
            }
            var output = input
            output.bitmap = ImageBitmap(width: calls, height: 1, fill: .white)
            return output
        }
        #expect {
            try growing.transformedImage(image, forKey: "k", animated: true)
        } throws: { error in
            guard (error as? WebImageError)?.code == .invalidArgument else { return false }
            return true
        }
    }
}
