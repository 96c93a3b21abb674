import CWebImageShims
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

// MARK: Decoding

extension JPEGCoder {
    /// How one decode runs: the DCT scale, the size libjpeg produces, and the final size.
    struct DecodePlan: Equatable {
        /// libjpeg-turbo's scale is `scaleNumerator`/8.
        var scaleNumerator: Int
        /// What libjpeg writes (and the pixel limit is checked against).
        var decodedSize: PixelSize
        /// The thumbnail size to resample to (stored orientation), or nil for full size.
        var target: PixelSize?
    }

    /// Chooses the DCT scale for `options` and checks the limits, before anything is allocated.
    static func plan(
        for header: JPEGHeader, orientation: ImageOrientation, options: ImageDecodeOptions
    ) throws(WebImageError) -> DecodePlan {
        let stored = header.storedSize
        let target = DecodeGeometry.targetSize(
            storedSize: stored, orientation: orientation, frameCount: 1, options: options)
        let numerator = target.map { dctScaleNumerator(stored: stored, target: $0) } ?? 8
        let decodedSize = scaledSize(stored, numerator: numerator)
        try DecodeGeometry.checkPixelLimit(width: decodedSize.width, height: decodedSize.height, options: options)
        if header.isProgressive && coefficientBytes(header) > coefficientBudget(options) {
            throw .imageTooLarge(width: stored.width, height: stored.height, limit: options.maxPixelCount)
        }
        return DecodePlan(scaleNumerator: numerator, decodedSize: decodedSize, target: target)
    }

    /// The largest libjpeg-turbo reduction (M/8, M in 1...8) whose output still covers `target`
    /// in both dimensions, so the resampler only ever shrinks by less than one DCT step.
    static func dctScaleNumerator(stored: PixelSize, target: PixelSize) -> Int {
        for numerator in 1..<8 {
            let size = scaledSize(stored, numerator: numerator)
            if size.width >= target.width && size.height >= target.height { return numerator }
        }
        return 8
    }

    /// libjpeg's output size for a scale of `numerator`/8: each side rounded up.
    static func scaledSize(_ size: PixelSize, numerator: Int) -> PixelSize {
        PixelSize(width: (size.width * numerator + 7) / 8, height: (size.height * numerator + 7) / 8)
    }

    /// libjpeg holds a progressive image's DCT coefficients at full size whatever the DCT scale:
    /// 2 bytes per sample (an upper bound, ignoring chroma subsampling).
    static func coefficientBytes(_ header: JPEGHeader) -> Int {
        header.storedSize.pixelCount.multipliedSaturating(by: max(header.components, 1) * 2)
    }

    /// What a progressive image's coefficients may take: 8 bytes per pixel of the pixel limit, so
    /// every progressive image that passes the limit at full size can be decoded; larger ones
    /// are refused even for a thumbnail (a baseline image has no such buffer and always can be).
    static func coefficientBudget(_ options: ImageDecodeOptions) -> Int {
        max(options.maxPixelCount, 0).multipliedSaturating(by: 8)
    }

    /// The decode pipeline shared by one-shot and incremental decoding: header → plan (limits) →
    /// decode at the chosen DCT scale straight into the bitmap → resample → orientation.
    ///
    /// In partial mode, returns nil when no row could be decoded yet, and the image is flagged
    /// incremental (with `hasAlpha` when rows are missing, because they are transparent).
    /// `orientation` is given for an embedded thumbnail, which takes its image's.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions, partial: Bool,
        orientation given: ImageOrientation? = nil
    ) throws(WebImageError) -> Image? {
        try requireStartOfImage(bytes)
        let layout = JPEGMarkers.layout(of: bytes, throughScans: false)
        let orientation = given ?? layout.orientation
        // A partial image is shown, never encoded; an embedded thumbnail takes its image's blocks.
        let metadata =
            given == nil && !partial
            ? JPEGMetadata.read(options.readMetadata, from: layout, in: bytes) : ImageMetadata()
        if given == nil, !partial, let app1 = layout.exifPayload,
            var thumbnail = JPEGEmbeddedThumbnail.decode(
                in: app1, of: bytes, orientation: orientation, options: options)
        {
            thumbnail.metadata = metadata
            return thumbnail
        }
        let (decoded, plan, validRows) = try JPEGShim.withDecoder(bytes) {
            decoder throws(WebImageError) -> (ImageBitmap, DecodePlan, Int) in
            let chosen = try Self.plan(for: decoder.header, orientation: orientation, options: options)
            let size = chosen.decodedSize
            // libjpeg's own buffers get the coefficient budget plus room for its working memory.
            let maxMemory = coefficientBudget(options).addingSaturating(64 << 20)
            var validRows = 0
            let bitmap = try ImageBitmap(width: size.width, height: size.height) { buffer throws(WebImageError) in
                let result = try decoder.decode(
                    scaleNumerator: chosen.scaleNumerator, strict: !partial, maxMemory: maxMemory,
                    into: buffer, size: size)
                validRows = Int(result.valid_rows)
            }
            return (bitmap, chosen, validRows)
        }
        if partial && validRows == 0 { return nil }
        var bitmap = decoded
        if let target = plan.target, target != plan.decodedSize {
            bitmap = try bitmap.resampled(to: target)
        }
        var shownOrientation = orientation
        if options.applyOrientation && orientation != .up {
            bitmap = bitmap.applyingOrientation(orientation)
            shownOrientation = .up
        }
        return Image(
            bitmap: bitmap, scale: max(1, options.scaleFactor), orientation: shownOrientation,
            format: .jpeg, hasAlpha: validRows < plan.decodedSize.height, isIncremental: partial,
            isThumbnail: plan.target != nil, metadata: metadata)
    }
}

extension Int {
    fileprivate func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }

    fileprivate func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}

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
