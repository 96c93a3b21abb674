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
        grayMetadata(metadata: metadata, options: options) { bitmap.isGray }
    }

    /// As ``grayMetadata(for:metadata:options:)``, for pixels that `isGray` looks at (only when
    /// the options ask for grayscale).
    static func grayMetadata(metadata: ImageMetadata, options: ImageEncodeOptions, isGray: () -> Bool)
        -> ImageMetadata?
    {
        guard options.writesGrayscale else { return nil }
        var gray = metadata
        if let profile = metadata.iccProfile, !isGrayProfile(profile) {
            guard ColorManagement.isSRGB(profile) else { return nil }
            gray.iccProfile = nil
        }
        return isGray() ? gray : nil
    }

    /// Whether an ICC profile's colour space (header bytes 16–19) is `GRAY`.
    static func isGrayProfile(_ profile: Data) -> Bool {
        profile.count >= 128 && profile.dropFirst(16).prefix(4).elementsEqual("GRAY".utf8)
    }
}

extension GrayscaleEncoding {
    /// Whether every RGBA pixel of `pixels` has R = G = B; stops at the first one that does not.
    static func isGray<Sample: Equatable>(_ pixels: [Sample]) -> Bool {
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

    /// One sample a pixel of RGBA `pixels` (its red, which is its gray) or, with `alpha`, two
    /// (gray, alpha).
    static func graySamples<Sample>(_ pixels: [Sample], alpha: Bool) -> [Sample] {
        let channels = alpha ? 2 : 1
        let pixelCount = pixels.count / 4
        return pixels.withUnsafeBufferPointer { source in
            [Sample](unsafeUninitializedCapacity: pixelCount * channels) { buffer, initialized in
                for pixel in 0..<pixelCount {
                    buffer[pixel * channels] = source[pixel * 4]
                    if alpha { buffer[pixel * channels + 1] = source[pixel * 4 + 3] }
                }
                initialized = pixelCount * channels
            }
        }
    }
}

extension ImageBitmap {
    /// Whether every pixel has R = G = B; stops at the first one that does not.
    var isGray: Bool { GrayscaleEncoding.isGray(pixels) }

    /// One byte a pixel (its red, which is its gray) or, with `alpha`, two (gray, alpha).
    func grayBytes(alpha: Bool) -> [UInt8] { GrayscaleEncoding.graySamples(pixels, alpha: alpha) }
}

extension ImageBitmap16 {
    /// Whether every pixel has R = G = B; stops at the first one that does not.
    var isGray: Bool { GrayscaleEncoding.isGray(pixels) }

    /// One sample a pixel (its red, which is its gray) or, with `alpha`, two (gray, alpha).
    func graySamples(alpha: Bool) -> [UInt16] { GrayscaleEncoding.graySamples(pixels, alpha: alpha) }
}
