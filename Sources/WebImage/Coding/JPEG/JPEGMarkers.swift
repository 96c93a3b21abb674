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
