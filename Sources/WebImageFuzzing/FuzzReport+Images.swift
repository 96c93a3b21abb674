import WebImage

extension FuzzReport {
    /// Lazy frames cost about a canvas of work each; past this many pixels of such work a body
    /// stops asking for more frames, so that a small file declaring thousands of huge frames
    /// cannot turn every run into a timeout.
    static let lazyFramePixelBudget = 4_000_000

    /// Checks what every decoded image promises, then asks for every frame of an animation.
    mutating func inspect(_ image: Image, step: String, fitting box: PixelSize? = nil) {
        let size = image.bitmap.size
        expect(size.isPositive, "\(step): empty \(size) image")
        expect(
            size.pixelCount <= FuzzBodies.maxPixelCount,
            "\(step): \(size) image exceeds the \(FuzzBodies.maxPixelCount)-pixel limit")
        expect(
            image.bitmap.byteCount == size.pixelCount * 4,
            "\(step): \(size) bitmap holds \(image.bitmap.byteCount) bytes")
        if let box {
            expect(
                size.width <= box.width && size.height <= box.height, "\(step): \(size) image does not fit in \(box)")
        }
        if let animation = image.animation {
            touchFrames(of: animation, size: size, step: step)
        }
    }

    /// Decodes every frame (lazy ones within ``lazyFramePixelBudget``); each must have the image's size.
    private mutating func touchFrames(of animation: ImageAnimation, size: PixelSize, step: String) {
        let lazyFrameLimit = max(1, Self.lazyFramePixelBudget / max(1, size.pixelCount))
        let count = animation.isFullyDecoded ? animation.frameCount : min(animation.frameCount, lazyFrameLimit)
        for index in 0..<count {
            guard let frame = self.step("\(step) frame \(index)", { try animation.frame(at: index) }) else { continue }
            expect(frame.bitmap.size == size, "\(step): frame \(index) is \(frame.bitmap.size), the image \(size)")
            expect(
                frame.duration.isFinite && frame.duration >= 0,
                "\(step): frame \(index) lasts \(frame.duration) s")
        }
    }
}
