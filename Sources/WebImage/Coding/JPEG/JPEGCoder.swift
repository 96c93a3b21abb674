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
