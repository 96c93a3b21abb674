import Foundation
import Testing

@testable import WebImage

/// The high bit depth fixtures (`Tests/Fixtures/depth`, made by `generators/depth.py`).
enum DepthFixtures {
    static let size = PixelSize(width: 16, height: 12)

    static let pngNames = ["rgb16", "rgb16_adam7", "rgba16", "gray16", "graya16", "gray16_trns", "rgb16_trns"]
    /// TIFFs of 16-bit integer samples (lossless: decoded exactly).
    static let tiffNames = ["rgb16", "rgba16", "rgba16_assoc", "gray16"]

    /// The deep AVIF, HEIC and JPEG XL files (of the coders built in), each with the largest
    /// difference from its reference a decoder may show: libavif's float conversion lands within
    /// 1 of the rounded 10- and 12-bit values; x265's lossless mode leaves a few HEIC values one
    /// 10-bit level (65) off; lossless JPEG XL is exact (see `generators/depth.py`).
    static var codecFiles: [(file: String, tolerance: Int)] {
        var files: [(file: String, tolerance: Int)] = []
        #if AVIF
            files += [("rgb10.avif", 1), ("rgba12.avif", 1)]
        #endif
        #if HEIC
            files.append(("rgb10.heic", 65))
        #endif
        #if JPEGXL
            files.append(("rgb16.jxl", 0))
        #endif
        return files
    }

    static var codecFileNames: [String] { codecFiles.map(\.file) }

    static func tolerance(_ file: String) -> Int { codecFiles.first { $0.file == file }?.tolerance ?? 0 }

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

    /// The mean difference between two deep bitmaps' values (`Int.max` when sizes differ).
    static func meanDifference(_ a: ImageBitmap16, _ b: ImageBitmap16) -> Int {
        guard a.size == b.size, !a.pixels.isEmpty else { return .max }
        return zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / a.pixels.count
    }

    /// A smooth deep bitmap (ramps across and down, opaque), the kind of picture a lossy encoder
    /// keeps close.
    static func gradient(_ size: PixelSize) throws -> ImageBitmap16 {
        var values: [UInt16] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                let across = UInt16(x * 65535 / max(1, size.width - 1))
                let down = UInt16(y * 65535 / max(1, size.height - 1))
                values += [across, down, UInt16((Int(across) + Int(down)) / 2), 65535]
            }
        }
        return try ImageBitmap16(width: size.width, height: size.height, pixels: values)
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
