extension JPEGCoder {
    /// The largest libjpeg-turbo reduction (M/8, M in 1...8) whose output still covers `target`
    /// in both dimensions, so the resampler only ever shrinks by less than one DCT step.
    static func dctScaleNumerator(stored: PixelSize, target: PixelSize) -> Int {
        for numerator in 1..<8 where covers(scaledSize(stored, numerator: numerator), target) {
            return numerator
        }
        return 8
    }

    /// libjpeg's output size for a scale of `numerator`/8: each side rounded up.
    static func scaledSize(_ size: PixelSize, numerator: Int) -> PixelSize {
        PixelSize(width: (size.width * numerator + 7) / 8, height: (size.height * numerator + 7) / 8)
    }

    private static func covers(_ size: PixelSize, _ target: PixelSize) -> Bool {
        size.width >= target.width && size.height >= target.height
    }

    /// The decode pipeline shared by one-shot and incremental decoding: header → pixel limit →
    /// decode at the chosen DCT scale straight into the bitmap → resample → orientation.
    ///
    /// In partial mode, returns nil when no row could be decoded yet, and the image is flagged
    /// incremental (with `hasAlpha` when rows are missing, because they are transparent).
    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions, partial: Bool
    ) throws -> Image? {
        try requireStartOfImage(bytes)
        let header = try JPEGShim.readHeader(bytes)
        let orientation = JPEGMarkers.layout(of: bytes, throughScans: false).orientation
        let stored = header.storedSize
        let target = DecodeGeometry.targetSize(
            storedSize: stored, orientation: orientation, frameCount: 1, options: options)
        let numerator = target.map { dctScaleNumerator(stored: stored, target: $0) } ?? 8
        let decodedSize = scaledSize(stored, numerator: numerator)
        try DecodeGeometry.checkPixelLimit(width: decodedSize.width, height: decodedSize.height, options: options)

        var validRows = decodedSize.height
        var bitmap = try ImageBitmap(width: decodedSize.width, height: decodedSize.height) { buffer in
            let result = try JPEGShim.decode(
                bytes, scaleNumerator: numerator, strict: !partial, into: buffer, size: decodedSize)
            validRows = Int(result.valid_rows)
        }
        if partial && validRows == 0 { return nil }
        if let target, target != decodedSize {
            bitmap = try bitmap.resampled(to: target)
        }
        var shownOrientation = orientation
        if options.applyOrientation && orientation != .up {
            bitmap = bitmap.applyingOrientation(orientation)
            shownOrientation = .up
        }
        return Image(
            bitmap: bitmap, scale: max(1, options.scaleFactor), orientation: shownOrientation,
            format: .jpeg, hasAlpha: validRows < decodedSize.height, isIncremental: partial,
            isThumbnail: target != nil)
    }
}
