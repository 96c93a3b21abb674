import CWebP
import Foundation

/// What a WebP file's header and container say, read without decoding pixels.
struct WebPContainer {
    /// Canvas size (the image size for a still).
    var width: Int
    var height: Int
    var hasAlpha: Bool
    var hasAnimation: Bool
    /// 1 for a still image.
    var frameCount: Int
    /// 0 means forever; 1 for a still image.
    var loopCount: Int
    /// Seconds per frame, after SDWebImage's rule for tiny durations.
    var durations: [Double]

    /// Reads the bitstream features only (no frame table): enough for the pixel-limit check.
    /// Never allocates anything sized by the header.
    static func features(of bytes: UnsafeRawBufferPointer) throws(WebImageError) -> WebPBitstreamFeatures {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .badImageData("the data is empty")
        }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw WebPStatus.error(status, while: "reading the WebP header") }
        return try validated(features)
    }

    /// Features of a possibly incomplete file: nil while more bytes could complete the header.
    static func partialFeatures(of bytes: UnsafeRawBufferPointer) throws(WebImageError) -> WebPBitstreamFeatures? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var features = WebPBitstreamFeatures()
        let status = WebPGetFeatures(base.assumingMemoryBound(to: UInt8.self), bytes.count, &features)
        if status == VP8_STATUS_NOT_ENOUGH_DATA { return nil }
        guard status == VP8_STATUS_OK else { throw WebPStatus.error(status, while: "reading the WebP header") }
        return try validated(features)
    }

    private static func validated(_ features: WebPBitstreamFeatures) throws(WebImageError) -> WebPBitstreamFeatures {
        guard features.width > 0, features.height > 0 else {
            throw .badImageData("the WebP header claims a size of \(features.width)x\(features.height)")
        }
        return features
    }

    /// Reads the header and, for an animation, walks the frame table (which needs the whole file).
    /// Call ``DecodeGeometry/checkPixelLimit(width:height:options:)`` in between via `check`.
    init(bytes: UnsafeRawBufferPointer, check: (Int, Int) throws(WebImageError) -> Void = { _, _ in })
        throws(WebImageError)
    {
        let features = try Self.features(of: bytes)
        width = Int(features.width)
        height = Int(features.height)
        try check(width, height)
        hasAlpha = features.has_alpha != 0
        hasAnimation = features.has_animation != 0
        frameCount = 1
        loopCount = 1
        durations = [0]
        if hasAnimation { try readFrameTable(bytes) }
    }

    /// SDWebImageWebPCoder's rule: a frame duration of 10 ms or less (including 0, which the
    /// WebP spec reserves for canvas updates) shows for 100 ms, as browsers do.
    static func frameDuration(milliseconds: Int) -> Double {
        milliseconds <= 10 ? 0.1 : Double(milliseconds) / 1000
    }

    private mutating func readFrameTable(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        var data = WebPData(bytes: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&data) else {
            throw .badImageData("the animated WebP container is truncated or corrupt")
        }
        defer { WebPDemuxDelete(demuxer) }
        let count = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        guard count > 0 else { throw .badImageData("the animated WebP has no frames") }
        loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        var iterator = WebPIterator()
        var found: [Double] = []
        found.reserveCapacity(count)
        if WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 {
            repeat {
                found.append(Self.frameDuration(milliseconds: Int(iterator.duration)))
                // Encoders often leave the VP8X alpha flag off although a frame has alpha or
                // leaves part of the (transparent) canvas uncovered.
                let covers =
                    iterator.x_offset == 0 && iterator.y_offset == 0
                    && Int(iterator.width) == width && Int(iterator.height) == height
                if iterator.has_alpha != 0 || !covers { hasAlpha = true }
            } while WebPDemuxNextFrame(&iterator) != 0
        }
        WebPDemuxReleaseIterator(&iterator)
        guard found.count == count else {
            throw .badImageData("the animated WebP lists \(count) frames but holds \(found.count)")
        }
        frameCount = count
        durations = found
    }
}

/// Turns libwebp status codes into ``WebImageError``s.
enum WebPStatus {
    static func error(_ status: VP8StatusCode, while doing: String) -> WebImageError {
        let reason: String
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: reason = "out of memory"
        case VP8_STATUS_INVALID_PARAM: reason = "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: reason = "corrupt bitstream"
        case VP8_STATUS_UNSUPPORTED_FEATURE: reason = "unsupported feature"
        case VP8_STATUS_SUSPENDED: reason = "decoding suspended"
        case VP8_STATUS_USER_ABORT: reason = "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: reason = "the data is truncated or not WebP"
        default: reason = "libwebp status \(status.rawValue)"
        }
        return WebImageError.badImageData("\(doing): \(reason)")
    }
}
