import Foundation
import Testing

@testable import WebImage

/// The high bit depth fixtures (`Tests/Fixtures/depth`, made by `generators/depth.py`).
enum DepthFixtures {
    static let size = PixelSize(width: 16, height: 12)

    static let pngNames = ["rgb16", "rgb16_adam7", "rgba16", "gray16", "graya16", "gray16_trns", "rgb16_trns"]
    /// TIFFs of 16-bit integer samples (lossless: decoded exactly).
    static let tiffNames = ["rgb16", "rgba16", "rgba16_assoc", "gray16"]

    static func data(_ file: String) throws -> Data { try Fixtures.data("depth/" + file) }

    /// The 16-bit RGBA pixels `file` must decode to (`file.rgba16`, little-endian).
    static func expected(_ file: String) throws -> ImageBitmap16 {
        let bytes = try data(file + ".rgba16")
        let values = stride(from: 0, to: bytes.count - 1, by: 2).map {
            UInt16(bytes[bytes.startIndex + $0]) | UInt16(bytes[bytes.startIndex + $0 + 1]) << 8
        }
        return try ImageBitmap16(width: size.width, height: size.height, pixels: values)
    }

    static var deepOptions: ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.preservesHighBitDepth = true
        return options
    }

    /// `data` decoded through the coders manager with the depth kept.
    static func decodeDeep(_ data: Data) throws -> Image {
        try ImageCodersManager.shared.decode(data, options: deepOptions)
    }

    /// The largest difference between two deep bitmaps' values (`Int.max` when sizes differ).
    static func maxDifference(_ a: ImageBitmap16, _ b: ImageBitmap16) -> Int {
        guard a.size == b.size else { return .max }
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// A deterministic deep bitmap whose every value has a low byte unlike its high byte, with
    /// translucent alpha when `alpha`.
    static func pattern(_ size: PixelSize, alpha: Bool) throws -> ImageBitmap16 {
        var values: [UInt16] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let base = UInt16(truncatingIfNeeded: (x * 4099 + y * 7919) &* 37)
                values += [
                    base, base &+ 0x1357, base &+ 0x8ACE, alpha ? UInt16(truncatingIfNeeded: 0x8001 + x * 1000) : 65535,
                ]
            }
        }
        return try ImageBitmap16(width: size.width, height: size.height, pixels: values)
    }
}
