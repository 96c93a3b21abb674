extension ImageDecodeOptions {
    /// A partial picture, drawn at its stored size, shown as the final image will be: resampled to
    /// the thumbnail size these options ask for, turned per ``applyOrientation``, and flagged
    /// ``Image/isIncremental``. For the incremental decoders that draw into a whole-size buffer.
    func partialImage(
        _ bitmap: ImageBitmap, orientation: ImageOrientation, format: ImageFormat, hasAlpha: Bool,
        metadata: ImageMetadata
    ) throws(WebImageError) -> Image {
        let target = DecodeGeometry.targetSize(
            storedSize: bitmap.size, orientation: orientation, frameCount: 1, options: self)
        var bitmap = bitmap
        if let target { bitmap = try bitmap.resampled(to: target) }
        let turns = applyOrientation && orientation != .up
        if turns { bitmap = bitmap.applyingOrientation(orientation) }
        return Image(
            bitmap: bitmap, scale: scaleFactor >= 1 ? scaleFactor : 1, orientation: turns ? .up : orientation,
            format: format, hasAlpha: hasAlpha, isIncremental: true, isThumbnail: target != nil, metadata: metadata)
    }
}
