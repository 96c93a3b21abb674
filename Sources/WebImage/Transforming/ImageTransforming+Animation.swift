extension ImageTransforming {
    /// Transforms an image, and with `animated` every frame of an animation (what the manager
    /// does for ``WebImageOptions/transformAnimatedImage``), keeping each frame's duration and the
    /// loop count. Lazy frames are decoded one at a time.
    ///
    /// Without `animated`, or for a still image, this is ``transformedImage(_:forKey:)``, which
    /// transforms the poster frame only and returns a still image.
    ///
    /// Throws ``WebImageError/imageTooLarge(width:height:limit:)`` when the transformed frames
    /// would exceed `maxAnimationByteCount` bytes, checked before each frame is kept, and
    /// ``WebImageError/invalidArgument(_:underlying:)`` if frames come out in different sizes.
    public func transformedImage(
        _ image: Image, forKey key: String, animated: Bool,
        maxAnimationByteCount: Int = ImageDecodeOptions.defaultMaxAnimationByteCount
    ) throws(WebImageError) -> Image {
        guard animated, let animation = image.animation, animation.frameCount > 1 else {
            var still = try transformedImage(image, forKey: key)
            still.animation = nil
            return still
        }
        let frameCount = animation.frameCount
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        var first: Image?
        var heldBytes = 0
        var hasAlpha = false
        for index in 0..<frameCount {
            let frame = try animation.frame(at: index)
            var still = image
            still.bitmap = frame.bitmap
            still.animation = nil
            let result = try transformedImage(still, forKey: key)
            if let first, result.bitmap.size != first.bitmap.size {
                throw .invalidArgument(
                    "frame \(index) transformed to \(result.bitmap.size), frame 0 to \(first.bitmap.size)")
            }
            heldBytes += result.bitmap.byteCount
            // Projected from the first frame, so an oversized animation fails before more work.
            let projected = max(heldBytes, result.bitmap.byteCount * frameCount)
            if projected > maxAnimationByteCount {
                throw .imageTooLarge(
                    width: result.width, height: result.height,
                    limit: max(0, maxAnimationByteCount) / 4 / frameCount)
            }
            if first == nil { first = result }
            hasAlpha = hasAlpha || result.hasAlpha
            frames.append(ImageFrame(bitmap: result.bitmap, duration: frame.duration))
        }
        var result = first!
        result.animation = ImageAnimation(frames: frames, loopCount: animation.loopCount)
        result.hasAlpha = hasAlpha
        result.isTransformed = true
        return result
    }
}
