import Foundation

/// Decodes and encodes BMP in Swift (there is no system library for it): 1-, 4-, 8-, 16-, 24-
/// and 32-bit pixels; uncompressed, RLE8, RLE4 and bit fields (with or without an alpha mask);
/// bottom-up and top-down rows; core, info, V2–V5 and OS/2 2.x headers. Palettes are checked
/// against their declared size and the file; an index past the palette reads as black, and
/// pixels an RLE file skips are transparent.
///
/// Encoding writes 24-bit BGR for opaque images and 32-bit BGRA with a V4 header's alpha mask
/// for images with transparency; animations keep their first frame.
public struct BMPCoder: ImageCoding {
    public init() {}

    public func canDecode(_ data: Data) -> Bool { data.count >= 2 && data.starts(with: [0x42, 0x4D]) }

    public func canEncode(to format: ImageFormat) -> Bool { format == .bmp }

    public func imageInfo(for data: Data) throws(WebImageError) -> ImageInfo {
        let header = try data.withUnsafeBytesTyped { bytes throws(WebImageError) in try BMPHeader(bytes) }
        return ImageInfo(format: .bmp, width: header.width, height: header.height, hasAlpha: header.hasAlpha)
    }

    public func decode(_ data: Data, options: ImageDecodeOptions) throws(WebImageError) -> Image {
        let scale = options.scaleFactor >= 1 ? options.scaleFactor : 1
        let (bitmap, header) = try data.withUnsafeBytesTyped {
            bytes throws(WebImageError) -> (ImageBitmap, BMPHeader) in
            let header = try BMPHeader(bytes)
            try DecodeGeometry.checkPixelLimit(width: header.width, height: header.height, options: options)
            let bitmap = try ImageBitmap(width: header.width, height: header.height) {
                buffer throws(WebImageError) in
                switch header.compression {
                case .rle8, .rle4: try BMPRunLength.decode(bytes, header: header, into: buffer)
                default: try Self.decodeRows(bytes, header: header, into: buffer)
                }
            }
            return (bitmap, header)
        }
        let target = DecodeGeometry.targetSize(
            storedSize: bitmap.size, orientation: .up, frameCount: 1, options: options)
        let output = try target.map { size throws(WebImageError) in try bitmap.resampled(to: size) } ?? bitmap
        let hasAlpha = header.hasAlpha || header.compression == .rle8 || header.compression == .rle4
        return Image(
            bitmap: output, scale: scale, format: .bmp, hasAlpha: hasAlpha && output.containsTransparency,
            isThumbnail: target != nil)
    }

    /// Uncompressed and bit-field rows, bottom-up or top-down, into RGBA.
    static func decodeRows(
        _ bytes: UnsafeRawBufferPointer, header: BMPHeader, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) throws(WebImageError) {
        let rowBytes = header.rowBytes
        let (needed, overflow) = rowBytes.multipliedReportingOverflow(by: header.height)
        guard !overflow, header.pixelOffset + needed <= bytes.count else {
            throw .badImageData(
                "the BMP file is truncated: \(header.height) rows of \(rowBytes) bytes do not fit after byte \(header.pixelOffset)"
            )
        }
        let width = header.width
        let black = RGBA8(r: 0, g: 0, b: 0, a: 255)
        for row in 0..<header.height {
            let y = header.isTopDown ? row : header.height - 1 - row
            let source = header.pixelOffset + row * rowBytes
            var out = y * width * 4
            func put(_ colour: RGBA8) {
                buffer[out] = colour.r
                buffer[out + 1] = colour.g
                buffer[out + 2] = colour.b
                buffer[out + 3] = colour.a
                out += 4
            }
            switch header.bitsPerPixel {
            case 1, 4, 8:
                let bits = header.bitsPerPixel
                let perByte = 8 / bits
                let mask = (1 << bits) - 1
                for x in 0..<width {
                    let byte = Int(bytes[source + x / perByte])
                    let index = (byte >> (8 - bits * (x % perByte + 1))) & mask
                    put(index < header.palette.count ? header.palette[index] : black)
                }
            case 24:
                for x in 0..<width {
                    let at = source + x * 3
                    put(RGBA8(r: bytes[at + 2], g: bytes[at + 1], b: bytes[at], a: 255))
                }
            default:  // 16 or 32 with masks
                let masks = header.masks
                let wide = header.bitsPerPixel == 32
                for x in 0..<width {
                    let at = source + x * (wide ? 4 : 2)
                    var pixel = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8
                    if wide { pixel |= UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24 }
                    let alpha = masks.alpha.maximum > 0 ? masks.alpha.value(in: pixel) : 255
                    put(
                        RGBA8(
                            r: masks.red.value(in: pixel), g: masks.green.value(in: pixel),
                            b: masks.blue.value(in: pixel), a: alpha))
                }
            }
        }
    }
}
