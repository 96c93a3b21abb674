import Foundation

extension GIFCoder {
    /// Decodes every frame composited onto the full canvas, or only the first with
    /// ``ImageDecodeOptions/firstFrameOnly`` (a still image). A GIF of one frame is a still image.
    ///
    /// Frames are decoded up front while `frames × output bytes` stays within
    /// ``ImageDecodeOptions/maxAnimationByteCount`` and ``ImageDecodeOptions/lazyAnimatedFrames``
    /// is off; otherwise the animation is backed by a provider that composites frames on demand. With a
    /// thumbnail size or byte limit every frame is resampled and the image is a thumbnail.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        try decode(GIFContainer.parse(data), data: data, options: options)
    }

    func decode(_ container: GIFContainer, data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        try DecodeGeometry.checkPixelLimit(width: container.width, height: container.height, options: options)
        let canvasSize = PixelSize(width: container.width, height: container.height)
        let frameCount = options.firstFrameOnly ? 1 : container.frames.count
        let target = DecodeGeometry.targetSize(
            storedSize: canvasSize, orientation: .up, frameCount: frameCount, options: options)
        let scale = max(1, options.scaleFactor)

        func image(_ poster: ImageBitmap, _ animation: ImageAnimation?) -> Image {
            Image(
                bitmap: poster, scale: scale, format: .gif, animation: animation,
                hasAlpha: container.hasAlpha, isThumbnail: target != nil)
        }

        if frameCount == 1 {
            var compositor = GIFCompositor(container: container, maxPixelCount: options.maxPixelCount)
            try compositor.renderNext(from: data)
            return image(try Self.output(compositor.bitmap, size: target), nil)
        }

        // Made by the first eager frame: a lazy provider has a canvas of its own.
        var compositor: GIFCompositor?
        let (animation, poster) = try ImageAnimation.decoded(
            frameCount: frameCount, frameSize: target ?? canvasSize, loopCount: container.loopCount, options: options,
            frame: { index throws(WebImageError) in
                // Moved out and back, so the canvas is never shared while it is drawn on.
                var canvas =
                    compositor.take() ?? GIFCompositor(container: container, maxPixelCount: options.maxPixelCount)
                try canvas.renderNext(from: data)
                compositor = canvas
                return ImageFrame(
                    bitmap: try Self.output(canvas.bitmap, size: target), duration: container.frames[index].duration)
            },
            provider: { () throws(WebImageError) in
                try GIFAnimatedImageProvider(data: data, container: container, options: options)
            })
        return image(poster, animation)
    }

    /// The canvas at the output size.
    static func output(_ canvas: ImageBitmap, size: PixelSize?) throws(WebImageError) -> ImageBitmap {
        guard let size else { return canvas }
        return try canvas.resampled(to: size)
    }
}
