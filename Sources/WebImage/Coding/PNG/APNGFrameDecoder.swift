import CWebImageShims
import CZlib
import Foundation

/// Decodes one APNG frame's pixels with libpng (which has no APNG support in Debian): the
/// frame's zlib stream goes into a PNG of its own, with the canvas's IHDR at the frame's size
/// and the file's PLTE and tRNS, and comes out as RGBA8 like any still PNG.
enum APNGFrameDecoder {
    static func pixels(of frame: APNGFrameInfo, in container: APNGContainer, data: Data) throws(WebImageError)
        -> ImageBitmap
    {
        var png = PNGChunkScan.signature
        var header = container.header
        header.replaceSubrange(0..<8, with: bigEndian(UInt32(frame.width)) + bigEndian(UInt32(frame.height)))
        append("IHDR", header, to: &png)
        png += container.sharedChunks
        var stream: [UInt8] = []
        stream.reserveCapacity(frame.dataRanges.reduce(0) { $0 + $1.count })
        for range in frame.dataRanges {
            stream += data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
        }
        append("IDAT", stream, to: &png)
        append("IEND", [], to: &png)
        return try png.withUnsafeBufferPointer { bytes throws(WebImageError) in
            guard let reader = cwi_png_reader_create(bytes.baseAddress, bytes.count, UInt32(Int32.max)) else {
                throw .badImageData("PNG: out of memory")
            }
            defer { cwi_png_reader_destroy(reader) }
            var pngHeader = cwi_png_header()
            if cwi_png_reader_read_header(reader, &pngHeader) != 0 { throw error(reader) }
            return try ImageBitmap(width: frame.width, height: frame.height) { buffer throws(WebImageError) in
                if cwi_png_reader_decode_rgba(reader, buffer.baseAddress, buffer.count) != 0 { throw error(reader) }
            }
        }
    }

    private static func error(_ reader: OpaquePointer) -> WebImageError {
        let message = String(cString: cwi_png_reader_message(reader))
        return .badImageData("APNG frame: \(message.isEmpty ? "unknown libpng error" : message)")
    }

    /// Appends a chunk (length, type, data, CRC-32) to `png`.
    static func append(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        png += bigEndian(UInt32(data.count)) + typeBytes + data
        var crc = typeBytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, UInt32($0.count)) }
        crc = data.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, UInt32($0.count)) }
        png += bigEndian(UInt32(crc))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
