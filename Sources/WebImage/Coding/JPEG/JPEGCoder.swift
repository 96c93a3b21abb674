import Foundation

/// Decodes and encodes JPEG with libjpeg-turbo (the classic API, behind a small C shim).
///
/// Decoding writes RGBA straight into the bitmap's storage. Grayscale, CMYK and YCCK sources come
/// out as RGB (Adobe's inverted CMYK is recognised by its APP14 marker). The EXIF orientation is
/// applied unless ``ImageDecodeOptions/applyOrientation`` is false. Thumbnails and
/// ``ImageDecodeOptions/scaleDownLimitBytes`` first shrink inside the DCT (by 1/8 … 8/8), then
/// resample to the exact size; the pixel limit applies to the pixels actually allocated (the
/// DCT-reduced size), so a photo above the limit can still be decoded as a small thumbnail.
///
/// Truncated data is an error for ``decode(_:options:)`` (libjpeg alone would pad it with grey);
/// the incremental decoder shows it instead (see ``makeIncrementalDecoder(options:)``).
public struct JPEGCoder: ProgressiveImageCoding {
    public init() {}

    /// True for data that sniffs as JPEG (first byte `FF`, as SDWebImage decides).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .jpeg
    }

    /// Size as shown (after the EXIF orientation), the orientation, no alpha, one frame.
    public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        try data.withUnsafeBytesTyped { bytes throws(WebImageError) in
            try Self.requireStartOfImage(bytes)
            let size = try JPEGShim.withDecoder(bytes) { $0.header.storedSize }
            let orientation = JPEGMarkers.layout(of: bytes, throughScans: false).orientation
            return ImageInfo(
                format: .jpeg,
                width: orientation.swapsDimensions ? size.height : size.width,
                height: orientation.swapsDimensions ? size.width : size.height,
                hasAlpha: false, orientation: orientation)
        }
    }

    /// Decodes the whole image. Empty, corrupt and truncated data throw
    /// ``WebImageError/badImageData(_:underlying:)``; headers above the pixel limit throw
    /// ``WebImageError/imageTooLarge(width:height:limit:)`` before any pixel is allocated.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        try data.withUnsafeBytesTyped { bytes throws(WebImageError) in
            try Self.decode(bytes, options: options, partial: false)!
        }
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .jpeg }

    /// True for data that sniffs as JPEG; baseline and progressive both decode incrementally.
    public func canDecodeIncrementally(_ data: Data) -> Bool { canDecode(data) }

    /// A decoder for one download. Partial images appear once the header and some image data
    /// are in: for progressive JPEGs after each complete scan (the whole picture, refined scan by
    /// scan); for baseline JPEGs the rows received so far, the rest transparent.
    public func makeIncrementalDecoder(options: ImageDecodeOptions) -> any IncrementalImageDecoding {
        JPEGIncrementalDecoder(options: options)
    }

    static func requireStartOfImage(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        if bytes.isEmpty { throw .badImageData("the data is empty") }
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw .badImageData("not a JPEG: the data does not start with an SOI marker")
        }
    }
}

// MARK: Decoding

extension JPEGCoder {
    /// How one decode runs: the DCT scale, the size libjpeg produces, and the final size.
    struct DecodePlan: Equatable {
        /// libjpeg-turbo's scale is `scaleNumerator`/8.
        var scaleNumerator: Int
        /// What libjpeg writes (and the pixel limit is checked against).
        var decodedSize: PixelSize
        /// The thumbnail size to resample to (stored orientation), or nil for full size.
        var target: PixelSize?
    }

    /// Chooses the DCT scale for `options` and checks the limits, before anything is allocated.
    static func plan(
        for header: JPEGHeader, orientation: ImageOrientation, options: ImageDecodeOptions
    ) throws(WebImageError) -> DecodePlan {
        let stored = header.storedSize
        let target = DecodeGeometry.targetSize(
            storedSize: stored, orientation: orientation, frameCount: 1, options: options)
        let numerator = target.map { dctScaleNumerator(stored: stored, target: $0) } ?? 8
        let decodedSize = scaledSize(stored, numerator: numerator)
        try DecodeGeometry.checkPixelLimit(width: decodedSize.width, height: decodedSize.height, options: options)
        if header.isProgressive && coefficientBytes(header) > coefficientBudget(options) {
            throw .imageTooLarge(width: stored.width, height: stored.height, limit: options.maxPixelCount)
        }
        return DecodePlan(scaleNumerator: numerator, decodedSize: decodedSize, target: target)
    }

    /// The largest libjpeg-turbo reduction (M/8, M in 1...8) whose output still covers `target`
    /// in both dimensions, so the resampler only ever shrinks by less than one DCT step.
    static func dctScaleNumerator(stored: PixelSize, target: PixelSize) -> Int {
        for numerator in 1..<8 {
            let size = scaledSize(stored, numerator: numerator)
            if size.width >= target.width && size.height >= target.height { return numerator }
        }
        return 8
    }

    /// libjpeg's output size for a scale of `numerator`/8: each side rounded up.
    static func scaledSize(_ size: PixelSize, numerator: Int) -> PixelSize {
        PixelSize(width: (size.width * numerator + 7) / 8, height: (size.height * numerator + 7) / 8)
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

    /// The decode pipeline shared by one-shot and incremental decoding: header → plan (limits) →
    /// decode at the chosen DCT scale straight into the bitmap → resample → orientation.
    ///
    /// In partial mode, returns nil when no row could be decoded yet, and the image is flagged
    /// incremental (with `hasAlpha` when rows are missing, because they are transparent).
    /// `orientation` is given for an embedded thumbnail, which takes its image's.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions, partial: Bool,
        orientation given: ImageOrientation? = nil
    ) throws(WebImageError) -> Image? {
        try requireStartOfImage(bytes)
        let layout = JPEGMarkers.layout(of: bytes, throughScans: false)
        let orientation = given ?? layout.orientation
        // A partial image is shown, never encoded; an embedded thumbnail takes its image's blocks.
        let metadata =
            given == nil && !partial
            ? JPEGMetadata.read(options.readMetadata, from: layout, in: bytes) : ImageMetadata()
        if given == nil, !partial, let app1 = layout.exifPayload,
            var thumbnail = JPEGEmbeddedThumbnail.decode(
                in: app1, of: bytes, orientation: orientation, options: options)
        {
            thumbnail.metadata = metadata
            return thumbnail
        }
        let (decoded, plan, validRows) = try JPEGShim.withDecoder(bytes) {
            decoder throws(WebImageError) -> (ImageBitmap, DecodePlan, Int) in
            let chosen = try Self.plan(for: decoder.header, orientation: orientation, options: options)
            let size = chosen.decodedSize
            // libjpeg's own buffers get the coefficient budget plus room for its working memory.
            let maxMemory = coefficientBudget(options).addingSaturating(64 << 20)
            var validRows = 0
            let bitmap = try ImageBitmap(width: size.width, height: size.height) { buffer throws(WebImageError) in
                let result = try decoder.decode(
                    scaleNumerator: chosen.scaleNumerator, strict: !partial, maxMemory: maxMemory,
                    into: buffer, size: size)
                validRows = Int(result.valid_rows)
            }
            return (bitmap, chosen, validRows)
        }
        if partial && validRows == 0 { return nil }
        var bitmap = decoded
        if let target = plan.target, target != plan.decodedSize {
            bitmap = try bitmap.resampled(to: target)
        }
        var shownOrientation = orientation
        if options.applyOrientation && orientation != .up {
            bitmap = bitmap.applyingOrientation(orientation)
            shownOrientation = .up
        }
        return Image(
            bitmap: bitmap, scale: max(1, options.scaleFactor), orientation: shownOrientation,
            format: .jpeg, hasAlpha: validRows < plan.decodedSize.height, isIncremental: partial,
            isThumbnail: plan.target != nil, metadata: metadata)
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
