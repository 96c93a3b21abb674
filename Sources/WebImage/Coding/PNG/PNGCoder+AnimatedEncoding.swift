import CWebImageShims
import Foundation

extension PNGCoder {
    /// Writes every frame of `image` as an APNG: the first frame whole as the default image,
    /// then each later frame as the rectangle that changed, replacing what was there
    /// (`APNG_BLEND_OP_SOURCE`, `APNG_DISPOSE_OP_NONE`), so every frame decodes exactly. RGBA
    /// when any frame has alpha, else RGB; durations in milliseconds (hundredths past 65.5 s);
    /// the loop count as `acTL`'s plays.
    func encodeAnimation(_ image: Image, options: ImageEncodeOptions, level: Int32) throws(WebImageError) -> Data {
        guard let animation = image.animation else { throw .invalidArgument("the image is not animated") }
        let frames = try image.framesForEncoding(options)
        let canvas = frames[0].0
        guard frames.allSatisfy({ $0.0.size == canvas.size }),
            let width = UInt32(exactly: canvas.width), let height = UInt32(exactly: canvas.height)
        else { throw .encodingFailed("APNG: every frame must have the first frame's size") }
        let keepAlpha = image.hasAlpha || frames.contains { $0.0.containsTransparency }
        var png = PNGChunkScan.signature
        var header: [UInt8] = APNGFrameDecoder.bigEndian(width) + APNGFrameDecoder.bigEndian(height)
        header += [8, keepAlpha ? 6 : 2, 0, 0, 0]
        APNGFrameDecoder.append("IHDR", header, to: &png)
        APNGFrameDecoder.append(
            "acTL",
            APNGFrameDecoder.bigEndian(UInt32(frames.count)) + APNGFrameDecoder.bigEndian(UInt32(animation.loopCount)),
            to: &png)
        var sequence: UInt32 = 0
        for (index, (bitmap, duration)) in frames.enumerated() {
            let rect =
                index == 0
                ? PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
                : GIFFrameDiff.changedRect(from: frames[index - 1].0, to: bitmap)
                    ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
            let stream = try Self.imageData(
                bitmap.cropped(to: rect), keepAlpha: keepAlpha, level: level, effort: options.effort)
            APNGFrameDecoder.append("fcTL", Self.frameControl(sequence, rect, duration), to: &png)
            sequence += 1
            if index == 0 {
                APNGFrameDecoder.append("IDAT", stream, to: &png)
            } else {
                APNGFrameDecoder.append("fdAT", APNGFrameDecoder.bigEndian(sequence) + stream, to: &png)
                sequence += 1
            }
        }
        APNGFrameDecoder.append("IEND", [], to: &png)
        let metadata = image.metadata.forEncoding(options.keptMetadata)
        return metadata.isEmpty ? Data(png) : PNGMetadata.inserting(metadata, into: Data(png))
    }

    private static func frameControl(_ sequence: UInt32, _ rect: PixelRect, _ duration: Double) -> [UInt8] {
        let milliseconds = (max(duration, 0) * 1000).rounded()
        let (numerator, denominator): (UInt16, UInt16) =
            milliseconds <= Double(UInt16.max)
            ? (UInt16(clamping: milliseconds), 1000)
            : (UInt16(clamping: duration * 100, rounding: .toNearestOrAwayFromZero), 100)
        var control = APNGFrameDecoder.bigEndian(sequence)
        for value in [rect.width, rect.height, rect.x, rect.y] { control += APNGFrameDecoder.bigEndian(UInt32(value)) }
        control += [UInt8(numerator >> 8), UInt8(numerator & 0xFF), UInt8(denominator >> 8), UInt8(denominator & 0xFF)]
        return control + [0, 0]  // APNG_DISPOSE_OP_NONE, APNG_BLEND_OP_SOURCE
    }

    /// The zlib stream libpng writes for `bitmap` (its IDAT data, joined).
    private static func imageData(_ bitmap: ImageBitmap, keepAlpha: Bool, level: Int32, effort: EncodeEffort)
        throws(WebImageError) -> [UInt8]
    {
        let png = try encoded { output, length, message, capacity in
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                cwi_png_encode_rgba(
                    pixels.baseAddress, UInt32(bitmap.width), UInt32(bitmap.height), keepAlpha ? 1 : 0, level,
                    effort == .fastest ? 0 : 1, &output, &length, message, capacity)
            }
        }
        return png.withUnsafeBytes { bytes in
            var stream: [UInt8] = []
            var offset = 8
            while offset + 12 <= bytes.count {
                let length =
                    Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                    | Int(bytes[offset + 3])
                if bytes[(offset + 4)..<(offset + 8)].elementsEqual("IDAT".utf8) {
                    stream += bytes[(offset + 8)..<(offset + 8 + length)]
                }
                offset += 12 + length
            }
            return stream
        }
    }
}
