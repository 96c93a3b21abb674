import Foundation
import NIOCore
import WebImage

/// Deterministic bodies the origin makes up on request: images, random bytes, non-image bytes.
enum GeneratedContent {
    static let maximumSide = 4096
    static let maximumByteCount = 64 << 20

    static let imageFormats: [String: (format: ImageFormat, contentType: String)] = [
        "png": (.png, "image/png"),
        "jpeg": (.jpeg, "image/jpeg"),
        "jpg": (.jpeg, "image/jpeg"),
        "webp": (.webp, "image/webp"),
        "gif": (.gif, "image/gif"),
    ]

    /// A `width`×`height` image in `format`: a gradient with blocky noise, the same bytes for the
    /// same arguments. The noise keeps encoders from collapsing it to a few hundred bytes.
    static func image(width: Int, height: Int, format: ImageFormat, seed: UInt64) throws -> Data {
        let bitmap = ImageBitmap(width: width, height: height) { pixels in
            let xScale = 255 / max(width - 1, 1)
            let yScale = 255 / max(height - 1, 1)
            let shift = UInt8(truncatingIfNeeded: seed &* 37)
            for y in 0..<height {
                for x in 0..<width {
                    let offset = (y * width + x) * 4
                    let noise = SplitMix64.mix(seed ^ (UInt64(y / 4) << 32) ^ UInt64(x / 4))
                    pixels[offset] = UInt8(truncatingIfNeeded: x * xScale) &+ shift
                    pixels[offset + 1] = UInt8(truncatingIfNeeded: y * yScale)
                    pixels[offset + 2] = UInt8(truncatingIfNeeded: noise)
                    pixels[offset + 3] = 255
                }
            }
        }
        let image = Image(bitmap: bitmap, format: format, hasAlpha: false)
        var options = ImageEncodeOptions()
        options.compressionQuality = 0.9
        return try ImageCodersManager.shared.encode(image, as: format, options: options)
    }

    /// `count` pseudo-random bytes determined by `seed`.
    static func bytes(count: Int, seed: UInt64) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            var generator = SplitMix64(seed: seed)
            var index = 0
            while index < count {
                var word = generator.next()
                for _ in 0..<min(8, count - index) {
                    raw[index] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    index += 1
                }
            }
            return count
        }
        return buffer
    }

    /// `count` bytes of text that no image decoder recognises (no format starts with `garbage`).
    static func garbage(count: Int) -> ByteBuffer {
        let pattern = Array("garbage, not an image. ".utf8)
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            for index in 0..<count { raw[index] = pattern[index % pattern.count] }
            return count
        }
        return buffer
    }
}
