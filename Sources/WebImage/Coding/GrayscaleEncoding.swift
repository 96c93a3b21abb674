import Foundation

/// Whether an encoder writes an image as grayscale, and the bytes it writes then.
///
/// An image is written as grayscale (with ``ImageEncodeOptions/writesGrayscale``) when every
/// pixel has R = G = B and the ICC profile it keeps, if any, can go with gray pixels: a gray
/// profile stays; an sRGB profile is dropped, since gray without a profile is read as sRGB's gray
/// (and PNG and JPEG forbid an RGB profile on gray pixels); any other RGB profile (Display P3,
/// Adobe RGB) keeps the image in RGB, where its profile still says what the values mean.
enum GrayscaleEncoding {
    /// The metadata to write with gray pixels, or nil when `bitmap` is to be written in colour.
    static func grayMetadata(for bitmap: ImageBitmap, metadata: ImageMetadata, options: ImageEncodeOptions)
        -> ImageMetadata?
    {
        guard options.writesGrayscale else { return nil }
        var gray = metadata
        if let profile = metadata.iccProfile, !isGrayProfile(profile) {
            guard ColorManagement.isSRGB(profile) else { return nil }
            gray.iccProfile = nil
        }
        return bitmap.isGray ? gray : nil
    }

    /// Whether an ICC profile's colour space (header bytes 16–19) is `GRAY`.
    static func isGrayProfile(_ profile: Data) -> Bool {
        profile.count >= 128 && profile.dropFirst(16).prefix(4).elementsEqual("GRAY".utf8)
    }
}

extension ImageBitmap {
    /// Whether every pixel has R = G = B; stops at the first one that does not.
    var isGray: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var index = 0
            while index + 3 < buffer.count {
                let red = buffer[index]
                if red != buffer[index + 1] || red != buffer[index + 2] { return false }
                index += 4
            }
            return true
        }
    }

    /// One byte a pixel (its red, which is its gray) or, with `alpha`, two (gray, alpha).
    func grayBytes(alpha: Bool) -> [UInt8] {
        let channels = alpha ? 2 : 1
        let pixelCount = width * height
        return pixels.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: pixelCount * channels) { buffer, initialized in
                for pixel in 0..<pixelCount {
                    buffer[pixel * channels] = source[pixel * 4]
                    if alpha { buffer[pixel * channels + 1] = source[pixel * 4 + 3] }
                }
                initialized = pixelCount * channels
            }
        }
    }
}
