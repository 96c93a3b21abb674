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

    /// libjpeg holds a progressive image's DCT coefficients at full size whatever the DCT scale:
    /// 2 bytes per sample (an upper bound, ignoring chroma subsampling).
    static func coefficientBytes(_ header: JPEGHeader) -> Int {
        header.storedSize.pixelCount.multipliedSaturating(by: max(header.components, 1) * 2)
    }

    /// What a progressive image's coefficients may take: 8 bytes per pixel of the pixel limit, so
    /// every progressive image that passes the limit at full size can be decoded; larger ones
    /// are refused even for a thumbnail (a baseline image has no such buffer and always can be).
    static func coefficientBudget(_ options: ImageDecodeOptions) -> Int {
        max(options.maxPixelCount, 0).multipliedSaturating(by: 8)
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
        let memoryBudget = coefficientBudget(options)
        if header.isProgressive && coefficientBytes(header) > memoryBudget {
            throw WebImageError.imageTooLarge(
                width: stored.width, height: stored.height, limit: options.maxPixelCount)
        }

        var validRows = decodedSize.height
        var bitmap = try ImageBitmap(width: decodedSize.width, height: decodedSize.height) { buffer in
            let result = try JPEGShim.decode(
                bytes, scaleNumerator: numerator, strict: !partial,
                maxMemory: memoryBudget.addingSaturating(64 << 20), into: buffer, size: decodedSize)
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

extension Int {
    fileprivate func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }

    fileprivate func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
