import CWebP
import Foundation

/// EXIF, ICC and XMP in a WebP: the extended format's `EXIF`, `ICCP` and `XMP ` chunks, read by a
/// bounds-checked RIFF walk and written through libwebpmux (which sets the VP8X flags).
enum WebPMetadata {
    /// The blocks of `kinds` among the chunks of `bytes`; the first chunk of each kind counts.
    static func read(_ kinds: ImageMetadata.Kinds, in bytes: UnsafeRawBufferPointer) -> ImageMetadata {
        var metadata = ImageMetadata()
        // "RIFF", the size, "WEBP", then chunks; only the extended format (VP8X) has metadata.
        guard !kinds.isEmpty, bytes.count >= 20, bytes.starts(with: Array("RIFF".utf8)),
            UnsafeRawBufferPointer(rebasing: bytes[8..<16]).elementsEqual("WEBPVP8X".utf8)
        else { return metadata }
        let riffEnd = min(bytes.count, 8 + littleEndian32(bytes, at: 4))
        var offset = 12
        while offset + 8 <= riffEnd {
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 4)]), as: UTF8.self)
            let size = littleEndian32(bytes, at: offset + 4)
            let start = offset + 8
            guard size <= riffEnd - start else { break }
            let payload = Data(bytes[start..<(start + size)])
            switch type {
            case "EXIF" where kinds.contains(.exif) && metadata.exif == nil:
                // The container spec says bare TIFF data; some writers keep JPEG's `Exif\0\0`.
                metadata.exif = payload.starts(with: EXIFOrientation.signature) ? payload.dropFirst(6) : payload
            case "ICCP" where kinds.contains(.iccProfile) && metadata.iccProfile == nil:
                metadata.iccProfile = payload
            case "XMP " where kinds.contains(.xmp) && metadata.xmp == nil:
                metadata.xmp = payload
            default:
                break
            }
            offset = start + size + (size & 1)  // chunks are padded to an even size
        }
        if metadata.exif?.isEmpty == true { metadata.exif = nil }
        if metadata.iccProfile?.isEmpty == true { metadata.iccProfile = nil }
        if metadata.xmp?.isEmpty == true { metadata.xmp = nil }
        return metadata
    }

    private static func littleEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    /// `webp` (a still image or an animation) rewritten with chunks for `metadata`.
    static func inserting(_ metadata: ImageMetadata, into webp: Data) throws(WebImageError) -> Data {
        let blocks: [(String, Data)] = [
            ("ICCP", metadata.iccProfile), ("EXIF", metadata.exif), ("XMP ", metadata.xmp),
        ].compactMap { name, block in block.flatMap { $0.isEmpty ? nil : (name, $0) } }
        guard !blocks.isEmpty else { return webp }
        return try webp.withUnsafeBytesTyped { raw throws(WebImageError) -> Data in
            var image = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            guard let mux = WebPMuxCreate(&image, 0) else {
                throw .encodingFailed("libwebpmux could not read the encoded WebP")
            }
            defer { WebPMuxDelete(mux) }
            for (name, block) in blocks {
                let status = block.withUnsafeBytes { bytes in
                    var chunk = WebPData(bytes: bytes.bindMemory(to: UInt8.self).baseAddress, size: bytes.count)
                    return WebPMuxSetChunk(mux, name, &chunk, 1)
                }
                guard status == WEBP_MUX_OK else {
                    throw .encodingFailed("libwebpmux could not add the \(name) chunk (status \(status.rawValue))")
                }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else {
                WebPDataClear(&output)
                throw .encodingFailed("libwebpmux could not assemble the WebP with its metadata")
            }
            defer { WebPDataClear(&output) }
            return Data(bytes: bytes, count: output.size)
        }
    }
}
