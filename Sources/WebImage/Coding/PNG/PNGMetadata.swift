import CZlib
import Foundation
import NIOCore

/// EXIF (`eXIf`), ICC (`iCCP`) and XMP (`iTXt` with Adobe's keyword) in a PNG: read from the
/// chunk scan, written as chunks right after IHDR (where `iCCP` must come, before PLTE and IDAT).
enum PNGMetadata {
    /// The keyword that marks an `iTXt` chunk as an XMP packet, with its NUL terminator.
    static let xmpKeyword = Array("XML:com.adobe.xmp\0".utf8)
    /// A profile or XMP packet that inflates to more than this is left out: libpng's own cap for
    /// such chunks, so a small hostile chunk cannot claim a large allocation.
    static let maxInflatedBytes = 8 << 20

    /// The blocks of `kinds` that `scan` found in `bytes`; a block that does not parse or inflate
    /// is left out.
    static func read(_ kinds: ImageMetadata.Kinds, from scan: PNGChunkScan, in bytes: UnsafeRawBufferPointer)
        -> ImageMetadata
    {
        var metadata = ImageMetadata()
        if kinds.contains(.exif), let exif = scan.exif {
            // Some writers keep JPEG's `Exif\0\0` in front of the TIFF data.
            metadata.exif = Data(exif.starts(with: EXIFOrientation.signature) ? exif.dropFirst(6) : exif[...])
        }
        if kinds.contains(.iccProfile), let chunk = scan.iccProfileChunk {
            metadata.iccProfile = iccProfile(inChunk: UnsafeRawBufferPointer(rebasing: bytes[chunk]))
        }
        if kinds.contains(.xmp), let chunk = scan.xmpChunk {
            metadata.xmp = xmpPacket(inChunk: UnsafeRawBufferPointer(rebasing: bytes[chunk]))
        }
        return metadata
    }

    /// `iCCP`: a profile name of 1–79 bytes, NUL, compression method 0, then the zlib stream.
    static func iccProfile(inChunk data: UnsafeRawBufferPointer) -> Data? {
        guard let nul = data.prefix(80).firstIndex(of: 0), nul >= 1, nul + 2 < data.count, data[nul + 1] == 0 else {
            return nil
        }
        return inflated(UnsafeRawBufferPointer(rebasing: data[(nul + 2)...]))
    }

    /// `iTXt`: keyword, NUL, compression flag and method, language tag, NUL, translated keyword,
    /// NUL, then the text (deflated when the flag is 1).
    static func xmpPacket(inChunk data: UnsafeRawBufferPointer) -> Data? {
        var index = xmpKeyword.count
        guard index + 2 <= data.count else { return nil }
        let isCompressed = data[index] == 1
        let method = data[index + 1]
        index += 2
        for _ in 0..<2 {
            guard let nul = data[index...].firstIndex(of: 0) else { return nil }
            index = nul + 1
        }
        let text = UnsafeRawBufferPointer(rebasing: data[index...])
        guard isCompressed else { return text.isEmpty ? nil : Data(text) }
        return method == 0 ? inflated(text) : nil
    }

    /// A whole zlib stream inflated, or nil when it is corrupt, cut short or too large.
    private static func inflated(_ bytes: UnsafeRawBufferPointer) -> Data? {
        let stream = ZlibInflateStream(format: .deflate)
        var parts: [ByteBuffer] = []
        do {
            try stream.inflate(ByteBuffer(bytes: bytes), limit: maxInflatedBytes, into: &parts)
        } catch {
            return nil
        }
        guard stream.ended else { return nil }
        var data = Data(capacity: parts.reduce(0) { $0 + $1.readableBytes })
        for part in parts { data.append(contentsOf: part.readableBytesView) }
        return data.isEmpty ? nil : data
    }

    /// `png` with chunks for `metadata` after IHDR: `iCCP`, `eXIf`, then XMP's `iTXt`.
    static func inserting(_ metadata: ImageMetadata, into png: Data) -> Data {
        // The signature (8 bytes) and IHDR (4 + 4 + 13 + 4) always lead an encoder's output.
        let afterHeader = png.startIndex + 33
        guard png.count > 33 else { return png }
        var chunks: [UInt8] = []
        if let profile = metadata.iccProfile, !profile.isEmpty, let deflated = deflated(profile) {
            chunks += chunk("iCCP", Array("ICC Profile\0".utf8) + [0] + deflated)
        }
        if let exif = metadata.exif, !exif.isEmpty {
            chunks += chunk("eXIf", Array(exif))
        }
        if let xmp = metadata.xmp, !xmp.isEmpty {
            // Uncompressed, no language, no translated keyword: what XMP readers look for.
            chunks += chunk("iTXt", xmpKeyword + [0, 0, 0, 0] + Array(xmp))
        }
        guard !chunks.isEmpty else { return png }
        var output = Data(capacity: png.count + chunks.count)
        output.append(png[..<afterHeader])
        output.append(contentsOf: chunks)
        output.append(png[afterHeader...])
        return output
    }

    /// One chunk: length, type, data, and the CRC of type and data.
    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let body = typeBytes + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// `data` as a zlib stream at the best compression, or nil if zlib fails.
    private static func deflated(_ data: Data) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: Int(compressBound(UInt(data.count))))
        var length = UInt(output.count)
        let status = data.withUnsafeBytes { source in
            output.withUnsafeMutableBufferPointer { destination in
                compress2(
                    destination.baseAddress, &length, source.bindMemory(to: Bytef.self).baseAddress,
                    UInt(source.count), Z_BEST_COMPRESSION)
            }
        }
        guard status == Z_OK else { return nil }
        return Array(output.prefix(Int(length)))
    }
}
