import Foundation

/// Decodes and encodes ICO (Windows icons, the favicon format) in Swift.
///
/// Decoding reads the largest image of the file (the deepest of equal sizes), or with a
/// ``ImageDecodeOptions/thumbnailPixelSize`` the smallest one that fills the thumbnail without
/// being scaled up (else the largest), then resamples it as other coders do. Entries are PNG files
/// (read by ``PNGCoder``) or bitmaps with an AND mask (see the BMP decoder); sizes come from each
/// entry's own header, not the directory's. A directory that lists no image, more images than
/// the file holds, or an entry that is empty, overlaps the directory or runs past the file is a
/// ``WebImageError/Code/badImageData`` error; the pixel limit applies to the entry decoded.
///
/// Encoding writes one PNG entry, as imgproxy does, of the upright first frame scaled down to
/// fit 256×256 (ICO's largest size; imgproxy scales down too) and any
/// ``ImageEncodeOptions/maxPixelSize``.
public struct ICOCoder: ImageCoding {
    /// The largest width and height an ICO entry can state.
    public static let maxDimension = 256

    public init() {}

    public func canDecode(_ data: Data) -> Bool { ImageFormat(detecting: data) == .ico }

    public func canEncode(to format: ImageFormat) -> Bool { format == .ico }

    /// The largest entry's size. `hasAlpha` is its PNG's, and always true for a bitmap entry,
    /// whose AND mask may hide any pixel.
    public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        let entry = try Self.directory(data).largest
        let hasAlpha =
            entry.payload == .png ? try PNGCoder().imageInfo(for: Self.payload(of: entry, in: data)).hasAlpha : true
        return ImageInfo(format: .ico, width: entry.width, height: entry.height, hasAlpha: hasAlpha)
    }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let directory = try Self.directory(data)
        let entry =
            options.thumbnailPixelSize.isPositive
            ? directory.nearest(to: options.thumbnailPixelSize, preserveAspectRatio: options.preserveAspectRatio)
            : directory.largest
        let payload = Self.payload(of: entry, in: data)
        switch entry.payload {
        case .png:
            var pngOptions = options
            pngOptions.firstFrameOnly = true
            var image = try PNGCoder().decode(payload, options: pngOptions)
            image.format = .ico
            return image
        case .bitmap:
            let bitmap = try payload.withUnsafeBytesTyped { bytes throws(WebImageError) in
                try ICOBitmapEntry.decode(bytes, options: options)
            }
            let target = DecodeGeometry.targetSize(
                storedSize: bitmap.size, orientation: .up, frameCount: 1, options: options)
            let output = try target.map { size throws(WebImageError) in try bitmap.resampled(to: size) } ?? bitmap
            return Image(
                bitmap: output, scale: max(1, options.scaleFactor), format: .ico,
                hasAlpha: bitmap.containsTransparency, isThumbnail: target != nil)
        }
    }

    private static func directory(_ data: Data) throws(WebImageError) -> ICODirectory {
        try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try ICODirectory(bytes) }
    }

    /// The entry's bytes, as a `Data` of their own (indices from 0).
    private static func payload(of entry: ICODirectory.Entry, in data: Data) -> Data {
        let start = data.startIndex + entry.range.lowerBound
        return Data(data[start..<(start + entry.range.count)])
    }
}
