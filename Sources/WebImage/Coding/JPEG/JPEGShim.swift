import CWebImageShims
import Foundation

/// What a JPEG header says, read by libjpeg-turbo.
struct JPEGHeader: Equatable {
    /// Size as stored (before EXIF orientation).
    var storedSize: PixelSize
    var components: Int
    var isProgressive: Bool
    var hasAdobeMarker: Bool
}

/// Swift wrappers over the C shim; every libjpeg failure becomes a ``WebImageError``.
enum JPEGShim {
    /// Above libjpeg's JMSG_LENGTH_MAX (200).
    private static let messageCapacity = 256

    /// Opens a decoder on `bytes` (which must outlive `body`), reads the header once, and
    /// hands it to `body`; the decoder is closed afterwards.
    static func withDecoder<R>(
        _ bytes: UnsafeRawBufferPointer, _ body: (JPEGDecoderHandle) throws(WebImageError) -> R
    ) throws(WebImageError) -> R {
        var header = cwi_jpeg_header()
        var handle: OpaquePointer?
        let message = withMessageBuffer { err, errlen in
            handle = cwi_jpeg_open(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &header, err, errlen)
            return handle == nil ? -1 : 0
        }
        guard let handle else {
            let reason = message ?? "unknown libjpeg error"
            // libjpeg reads the fake EOI its memory source inserts as data, so a cut header fails
            // with a confusing message (e.g. "Bogus Huffman table definition").
            if header.hit_eof != 0 {
                throw .badImageData("the JPEG data is truncated (it ends inside the header: \(reason))")
            }
            throw .badImageData("cannot read the JPEG header: \(reason)")
        }
        defer { cwi_jpeg_close(handle) }
        let parsed = JPEGHeader(
            storedSize: PixelSize(width: Int(header.width), height: Int(header.height)),
            components: Int(header.components), isProgressive: header.progressive != 0,
            hasAdobeMarker: header.adobe_marker != 0)
        return try body(JPEGDecoderHandle(pointer: handle, header: parsed))
    }

    /// Encodes opaque RGBA (alpha is ignored) at libjpeg quality 1...100; `grayscale` writes one
    /// component (for pixels with R = G = B).
    static func encode(
        rgba: UnsafeBufferPointer<UInt8>, size: PixelSize, quality: Int, progressive: Bool,
        subsampling: ChromaSubsampling = .yuv420, optimizeCoding: Bool = false, grayscale: Bool = false
    ) throws(WebImageError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let sampling: Int32 =
            switch subsampling {
            case .yuv420: 0
            case .yuv422: 1
            case .yuv444: 2
            }
        let message = withMessageBuffer { err, errlen in
            cwi_jpeg_encode_rgba(
                rgba.baseAddress, Int32(size.width), Int32(size.height), size.width * 4, Int32(quality),
                progressive ? 1 : 0, sampling, optimizeCoding ? 1 : 0, grayscale ? 1 : 0, &output, &length, err,
                errlen)
        }
        if let message {
            cwi_jpeg_free(output)
            throw .encodingFailed("libjpeg: \(message)")
        }
        guard let output else { throw .encodingFailed("libjpeg produced no output") }
        // The shim's buffer is malloc'd and exactly `length` bytes: Data takes it over, no copy.
        return Data(bytesNoCopy: output, count: Int(length), deallocator: .free)
    }

    /// Runs `body` with a message buffer; returns the message when `body` returned non-zero.
    static func withMessageBuffer(
        _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> String? {
        var buffer = [CChar](repeating: 0, count: messageCapacity)
        let status = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard status != 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "unknown libjpeg error" : String(decoding: bytes, as: UTF8.self)
    }
}

/// An open libjpeg decompression with its header read; valid inside ``JPEGShim/withDecoder(_:_:)``.
struct JPEGDecoderHandle {
    let pointer: OpaquePointer
    let header: JPEGHeader

    /// Decodes at `scaleNumerator`/8 into `buffer`, which holds `size` pixels of RGBA. Once only.
    /// Strict mode throws when the data is truncated; partial mode reports how many rows are real.
    /// `maxMemory` caps libjpeg's whole-image buffers.
    func decode(
        scaleNumerator: Int, strict: Bool, maxMemory: Int,
        into buffer: UnsafeMutableBufferPointer<UInt8>, size: PixelSize
    ) throws(WebImageError) -> cwi_jpeg_decode_result {
        precondition(buffer.count >= size.pixelCount * 4, "destination too small")
        var result = cwi_jpeg_decode_result()
        let message = JPEGShim.withMessageBuffer { err, errlen in
            cwi_jpeg_decode_into(
                pointer, Int32(scaleNumerator), strict ? 1 : 0, maxMemory, buffer.baseAddress,
                size.width * 4, Int32(size.width), Int32(size.height), &result, err, errlen)
        }
        if let message {
            if result.truncated != 0 || result.hit_eof != 0 {
                throw .badImageData("the JPEG data is truncated (\(message))")
            }
            throw .badImageData("cannot decode the JPEG: \(message)")
        }
        if strict, result.valid_rows < Int32(size.height) {
            throw .badImageData("the JPEG data is truncated (it ends inside the image data)")
        }
        return result
    }
}
