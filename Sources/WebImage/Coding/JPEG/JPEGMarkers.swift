import Foundation

/// A bounds-checked walk over a JPEG's marker segments, done in Swift so that orientation and
/// scan boundaries are known without running libjpeg.
struct JPEGMarkerLayout: Equatable {
    /// From the APP1 Exif segment; `.up` when absent or unreadable.
    var orientation: ImageOrientation = .up
    /// Where that APP1 segment's payload lies in the data (an embedded thumbnail is looked for
    /// there only when a decode asks for one).
    var exifPayload: Range<Int>?
    /// The first APP1 XMP segment's payload, after its namespace signature.
    var xmpPacket: Range<Int>?
    /// The APP2 `ICC_PROFILE` segments, in file order (a profile may span several).
    var iccChunks: [JPEGICCChunk] = []
    /// The payloads of the APP13 `Photoshop 3.0` segments after their signature, in file order:
    /// Photoshop image resources (IPTC among them), which may span several segments.
    var photoshopPayloads: [Range<Int>] = []
    /// A progressive frame header (SOF2, SOF6, SOF10, SOF14) was seen.
    var isProgressive = false
    /// The header up to the first scan is complete (an SOS segment was read whole).
    var hasFirstScanHeader = false
    /// Scans whose entropy data is followed by a marker, i.e. fully received.
    var completeScans = 0
    /// The offset just past the last complete scan's entropy data.
    var completeScansEnd = 0
    /// The EOI marker was reached.
    var hasEndOfImage = false
}

enum JPEGMarkers {
    /// Walks the segments of `bytes`. With `throughScans` false it stops at the first SOS
    /// (enough for the orientation); otherwise it also skips entropy data to count complete scans.
    /// Stops quietly at a segment that runs past the end of the data, or at the end.
    static func layout(of bytes: UnsafeRawBufferPointer, throughScans: Bool) -> JPEGMarkerLayout {
        var layout = JPEGMarkerLayout()
        var sawOrientation = false
        let count = bytes.count
        guard count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return layout }
        var i = 2
        while i < count {
            guard bytes[i] == 0xFF else {
                i += 1  // stray bytes between segments: libjpeg skips them too (with a warning)
                continue
            }
            var j = i + 1
            while j < count, bytes[j] == 0xFF { j += 1 }
            guard j < count else { return layout }
            let marker = bytes[j]
            i = j + 1
            switch marker {
            case 0x01, 0xD0...0xD8:
                continue  // standalone markers carry no length
            case 0xD9:
                layout.hasEndOfImage = true
                return layout
            default:
                break
            }
            guard i + 2 <= count else { return layout }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard length >= 2, i + length <= count else { return layout }
            let payloadRange = (i + 2)..<(i + length)
            let payload = UnsafeRawBufferPointer(rebasing: bytes[payloadRange])
            i += length
            switch marker {
            case 0xE1:
                if !sawOrientation, let orientation = EXIFOrientation.read(fromApp1: payload) {
                    layout.orientation = orientation
                    sawOrientation = true
                }
                if layout.exifPayload == nil, EXIFOrientation.tiff(inApp1: payload) != nil {
                    layout.exifPayload = payloadRange
                } else if layout.xmpPacket == nil, payload.starts(with: JPEGMetadata.xmpSignature) {
                    layout.xmpPacket =
                        (payloadRange.lowerBound + JPEGMetadata.xmpSignature.count)..<payloadRange.upperBound
                }
            case 0xED:
                if payload.starts(with: PhotoshopResources.jpegSignature) {
                    layout.photoshopPayloads.append(
                        (payloadRange.lowerBound + PhotoshopResources.jpegSignature.count)..<payloadRange.upperBound)
                }
            case 0xE2:
                if let chunk = JPEGICCChunk(payload, at: payloadRange.lowerBound) { layout.iccChunks.append(chunk) }
            case 0xC2, 0xC6, 0xCA, 0xCE:
                layout.isProgressive = true
            case 0xDA:
                layout.hasFirstScanHeader = true
                guard throughScans, let end = endOfEntropyData(bytes, from: i) else { return layout }
                layout.completeScans += 1
                layout.completeScansEnd = end
                i = end
            default:
                break
            }
        }
        return layout
    }

    /// The offset of the first marker after entropy-coded data starting at `start`, or nil when
    /// the data ends first. Stuffed zeros (FF 00), restart markers and fill bytes are data.
    static func endOfEntropyData(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var k = start
        let last = bytes.count - 1
        while k < last {
            if bytes[k] != 0xFF {
                k += 1
                continue
            }
            let next = bytes[k + 1]
            switch next {
            case 0x00, 0xD0...0xD7: k += 2
            case 0xFF: k += 1
            default: return k
            }
        }
        return nil
    }
}

// MARK: Metadata in the markers

/// One APP2 segment of an ICC profile: ICC.1's `ICC_PROFILE\0`, a 1-based sequence number, the
/// segment count, then a piece of the profile.
struct JPEGICCChunk: Equatable {
    var sequence: Int
    var count: Int
    /// Where the piece lies in the file.
    var range: Range<Int>

    static let signature = Array("ICC_PROFILE\0".utf8)

    /// Nil unless `payload` (found at `offset` in the file) starts with the signature.
    init?(_ payload: UnsafeRawBufferPointer, at offset: Int) {
        let header = Self.signature.count + 2
        guard payload.count > header, payload.starts(with: Self.signature) else { return nil }
        sequence = Int(payload[header - 2])
        count = Int(payload[header - 1])
        range = (offset + header)..<(offset + payload.count)
    }
}

/// EXIF, ICC and XMP in a JPEG: read from the marker walk, written as APP segments.
enum JPEGMetadata {
    /// Adobe's namespace that starts an APP1 XMP payload.
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// A segment's payload can hold at most this many bytes (its length field counts itself).
    static let maxPayload = 65_533

    /// The blocks of `kinds` that `layout` found in `bytes`. An ICC profile whose segments are
    /// missing, repeated or inconsistently numbered is left out (as libjpeg's reader does).
    static func read(
        _ kinds: ImageMetadata.Kinds, from layout: JPEGMarkerLayout, in bytes: UnsafeRawBufferPointer
    ) -> ImageMetadata {
        var metadata = ImageMetadata()
        if kinds.contains(.exif), let payload = layout.exifPayload {
            metadata.exif = Data(bytes[(payload.lowerBound + EXIFOrientation.signature.count)..<payload.upperBound])
        }
        if kinds.contains(.xmp), let packet = layout.xmpPacket {
            metadata.xmp = Data(bytes[packet])
        }
        if kinds.contains(.iccProfile) {
            metadata.iccProfile = assembleProfile(layout.iccChunks, in: bytes)
        }
        return metadata
    }

    private static func assembleProfile(_ chunks: [JPEGICCChunk], in bytes: UnsafeRawBufferPointer) -> Data? {
        guard let count = chunks.first?.count, count > 0, chunks.count == count,
            chunks.allSatisfy({ $0.count == count })
        else { return nil }
        let ordered = chunks.sorted { $0.sequence < $1.sequence }
        guard ordered.map(\.sequence) == Array(1...count) else { return nil }
        var profile = Data(capacity: ordered.reduce(0) { $0 + $1.range.count })
        for chunk in ordered { profile.append(contentsOf: bytes[chunk.range]) }
        return profile.isEmpty ? nil : profile
    }

    /// `jpeg` with APP segments for `metadata` after its SOI and JFIF APP0 segment: Exif, XMP,
    /// then the ICC profile (split into as many APP2 segments as it needs, up to 255). A block too
    /// large for its segment is left out.
    static func inserting(_ metadata: ImageMetadata, into jpeg: Data) -> Data {
        let segments = self.segments(for: metadata)
        guard !segments.isEmpty, jpeg.count >= 4 else { return jpeg }
        var position = jpeg.startIndex + 2
        // libjpeg writes a JFIF APP0 first; the other APP segments follow it.
        if jpeg[position] == 0xFF, jpeg[position + 1] == 0xE0, jpeg.count >= 6 {
            let length = Int(jpeg[position + 2]) << 8 | Int(jpeg[position + 3])
            if position + 2 + length <= jpeg.endIndex { position += 2 + length }
        }
        var output = Data(capacity: jpeg.count + segments.count)
        output.append(jpeg[jpeg.startIndex..<position])
        output.append(contentsOf: segments)
        output.append(jpeg[position...])
        return output
    }

    /// The APP segments for `metadata`, in the order ``inserting(_:into:)`` writes them.
    static func segments(for metadata: ImageMetadata) -> [UInt8] {
        var bytes: [UInt8] = []
        if let exif = metadata.exif {
            appendSegment(0xE1, [EXIFOrientation.signature, Array(exif)], to: &bytes)
        }
        if let xmp = metadata.xmp {
            appendSegment(0xE1, [xmpSignature, Array(xmp)], to: &bytes)
        }
        if let profile = metadata.iccProfile, !profile.isEmpty {
            let pieceSize = maxPayload - JPEGICCChunk.signature.count - 2
            let count = (profile.count + pieceSize - 1) / pieceSize
            if count <= 255 {
                for index in 0..<count {
                    let start = profile.startIndex + index * pieceSize
                    let piece = Array(profile[start..<min(start + pieceSize, profile.endIndex)])
                    appendSegment(
                        0xE2, [JPEGICCChunk.signature, [UInt8(index + 1), UInt8(count)], piece], to: &bytes)
                }
            }
        }
        return bytes
    }

    /// Appends one segment made of `parts`, unless they exceed a segment's payload.
    private static func appendSegment(_ marker: UInt8, _ parts: [[UInt8]], to bytes: inout [UInt8]) {
        let length = parts.reduce(0) { $0 + $1.count }
        guard length <= maxPayload else { return }
        bytes += [0xFF, marker, UInt8((length + 2) >> 8), UInt8((length + 2) & 0xFF)]
        for part in parts { bytes += part }
    }
}
