extension ImageAnimation {
    /// The animation a decoder hands out, with its first frame (the image's own bitmap). While
    /// the options allow it (``ImageDecodeOptions/decodesFramesEagerly(frameSize:frameCount:)``)
    /// every frame is decoded up front by `frame`, called with 0, 1, 2… in order; otherwise
    /// `provider()` makes a provider that decodes them on demand.
    static func decoded(
        frameCount: Int, frameSize: PixelSize, loopCount: Int, options: ImageDecodeOptions,
        frame: (Int) throws(WebImageError) -> ImageFrame,
        provider: () throws(WebImageError) -> any AnimatedImageProvider
    ) throws(WebImageError) -> (animation: ImageAnimation, poster: ImageBitmap) {
        guard options.decodesFramesEagerly(frameSize: frameSize, frameCount: frameCount) else {
            return try onDemand(provider())
        }
        return try decodedEagerly(frameCount: frameCount, loopCount: loopCount, frame: frame)
    }

    /// Every frame decoded now by `frame`, called with 0, 1, 2… in order.
    static func decodedEagerly(
        frameCount: Int, loopCount: Int, frame: (Int) throws(WebImageError) -> ImageFrame
    ) throws(WebImageError) -> (animation: ImageAnimation, poster: ImageBitmap) {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        for index in 0..<frameCount { frames.append(try frame(index)) }
        guard let first = frames.first else { throw .badImageData("an animation without frames") }
        return (ImageAnimation(frames: frames, loopCount: loopCount), first.bitmap)
    }

    /// Frames decoded on demand by `provider`; its first one is decoded now, as the poster.
    static func onDemand(
        _ provider: any AnimatedImageProvider
    ) throws(WebImageError) -> (animation: ImageAnimation, poster: ImageBitmap) {
        (ImageAnimation(provider: provider), try provider.frame(at: 0))
    }
}
