import CWebImageShims
import Foundation

/// Decodes and encodes PNG and APNG with libpng (SDWebImage's PNG path through ImageIO, and its
/// `SDImageAPNGCoder`).
///
/// Decoding gives RGBA8 with straight alpha for every colour type and bit depth: palettes and
/// low bit depths are expanded, a tRNS chunk becomes alpha, gray is copied to RGB, and 16-bit
/// samples keep their high byte (as Pillow does). **No gamma correction is applied**: the pixels
/// are the stored sample values, so `gAMA`, `cHRM` and `sRGB` are ignored, and an `iCCP` profile
/// is kept in ``Image/metadata`` rather than applied. The EXIF orientation of an `eXIf` chunk is
/// honoured.
///
/// An APNG (an `acTL` chunk before the image data) decodes as an animation: its frames
/// composited as the APNG specification says (every dispose and blend operation), with their
/// delays (below 0.011 s becoming 0.1 s, SDWebImage's rule) and the loop count. The frames are the
/// `fcTL` chunks present, never more than `acTL` declares; a frame outside the canvas is an
/// error. Debian's libpng has no APNG patch, so each frame's data is decoded as a PNG of its own.
///
/// Truncated or corrupt data, a bad CRC on a critical chunk and too little image data are
/// errors (``WebImageError/badImageData(_:underlying:)``), never a partial image.
public struct PNGCoder: ImageCoding {
    public init() {}

    public func canDecode(_ data: Data) -> Bool {
        data.starts(with: PNGChunkScan.signature)
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        format == .png
    }

    /// Size, alpha (alpha channel or tRNS) and `eXIf` orientation; `frameCount` is always 1.
    /// No pixel limit applies: nothing is allocated for the pixels.
    public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        let animation = (try? Self.animation(in: data)) ?? nil
        return try withReader(data, options: nil) { _, header, orientation, _ in
            let swaps = orientation.swapsDimensions
            return ImageInfo(
                format: .png, width: swaps ? header.height : header.width,
                height: swaps ? header.width : header.height, frameCount: animation?.frames.count ?? 1,
                loopCount: animation?.loopCount ?? 1, hasAlpha: header.hasAlpha, orientation: orientation)
        }
    }

    /// Decodes at full size, then resamples to the thumbnail size or byte limit if one applies
    /// (``Image/isThumbnail``), then turns the pixels upright unless the options keep them.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        if let container = try Self.animation(in: data) {
            let (header, orientation, metadata) = try withReader(data, options: options) {
                _, header, orientation, metadata in
                (header, orientation, metadata)
            }
            return try decodeAnimation(
                data, container: container, header: header, orientation: orientation, metadata: metadata,
                options: options)
        }
        let (decoded, header, orientation, metadata) = try withReader(data, options: options) {
            reader, header, orientation, metadata throws(WebImageError) in
            if options.preservesHighBitDepth, header.bitDepth == 16 {
                let deep = try ImageBitmap16(width: header.width, height: header.height) {
                    buffer throws(WebImageError) in
                    if cwi_png_reader_decode_rgba16(reader, buffer.baseAddress, buffer.count) != 0 {
                        throw Self.readerError(reader)
                    }
                }
                return (DecodedPixels.deep(deep), header, orientation, metadata)
            }
            let bitmap = try ImageBitmap(width: header.width, height: header.height) { buffer throws(WebImageError) in
                if cwi_png_reader_decode_rgba(reader, buffer.baseAddress, buffer.count) != 0 {
                    throw Self.readerError(reader)
                }
            }
            return (DecodedPixels.eightBit(bitmap), header, orientation, metadata)
        }
        let finished = try decoded.finished(orientation: orientation, frameCount: 1, options: options)
        return finished.image(
            scale: options.scaleFactor >= 1 ? options.scaleFactor : 1, format: .png, hasAlpha: header.hasAlpha,
            metadata: metadata)
    }

    /// Opens `data` and reads the header. With decode `options`, enforces their pixel limit and a
    /// plausible amount of image data. Then hands the reader (positioned at the first IDAT) to
    /// `body`, with the metadata blocks the options ask for.
    private func withReader<T>(
        _ data: Data, options: ImageDecodeOptions?,
        _ body: (OpaquePointer, PNGHeader, ImageOrientation, ImageMetadata) throws(WebImageError) -> T
    ) throws(WebImageError) -> T {
        guard !data.isEmpty else { throw .badImageData("the data is empty") }
        guard canDecode(data) else { throw .badImageData("the data is not a PNG (bad signature)") }
        return try data.withUnsafeBytesTyped { (raw: UnsafeRawBufferPointer) throws(WebImageError) -> T in
            let bytes = raw.bindMemory(to: UInt8.self)
            let scan = PNGChunkScan(raw)
            // No side of an image within the pixel limit can exceed the limit itself.
            let maxPixelCount = options?.maxPixelCount ?? Int(Int32.max)
            let maxSide = UInt32(clamping: min(max(maxPixelCount, 1), Int(Int32.max)))
            guard let reader = cwi_png_reader_create(bytes.baseAddress, bytes.count, maxSide) else {
                throw .badImageData("PNG: out of memory")
            }
            defer { cwi_png_reader_destroy(reader) }
            var cHeader = cwi_png_header()
            if cwi_png_reader_read_header(reader, &cHeader) != 0 {
                if let options, let size = scan.storedSize, size.isPositive {
                    try DecodeGeometry.checkPixelLimit(width: size.width, height: size.height, options: options)
                }
                throw Self.readerError(reader)
            }
            let header = PNGHeader(cHeader)
            if let options {
                try DecodeGeometry.checkPixelLimit(width: header.width, height: header.height, options: options)
            }
            if options != nil, scan.idatIsTooShort(for: header) {
                throw .badImageData(
                    "PNG: \(scan.idatByteCount) bytes of image data cannot hold \(header.width)x\(header.height) pixels (truncated or corrupt)"
                )
            }
            let orientation = scan.exif.flatMap(EXIFOrientation.read(fromExifBlock:)) ?? .up
            let metadata = options.map { PNGMetadata.read($0.readMetadata, from: scan, in: raw) } ?? ImageMetadata()
            return try body(reader, header, orientation, metadata)
        }
    }

    private static func readerError(_ reader: OpaquePointer) -> WebImageError {
        let message = String(cString: cwi_png_reader_message(reader))
        return .badImageData("PNG: \(message.isEmpty ? "unknown libpng error" : message)")
    }
}
