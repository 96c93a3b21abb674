import Foundation
import Testing

@testable import WebImage

/// Helpers shared by the PNG tests.
enum PNGFixture {
    /// Every decodable fixture, by base name (each has `png/<name>.png` and `png/<name>.rgba`).
    static let decodable = [
        "gray1", "gray2", "gray4", "gray8", "gray16", "rgb8", "rgb16", "graya8", "graya16",
        "rgba8", "rgba16", "palette1", "palette2", "palette4", "palette8", "palette1_trns",
        "palette2_trns", "palette4_trns", "palette8_trns", "gray8_trns", "gray16_trns", "rgb8_trns",
        "gray2_adam7", "rgb16_adam7", "rgba8_adam7", "rgba8_hidden_rgb", "pillow_rgba8",
        "exif_right", "exif_left_after_idat",
    ]

    static func data(_ name: String) throws -> Data {
        try Fixtures.data("png/\(name).png")
    }

    /// The RGBA8 pixels the generator derived by construction.
    static func expectedPixels(_ name: String) throws -> [UInt8] {
        [UInt8](try Fixtures.data("png/\(name).rgba"))
    }

    static func invalid(_ name: String) throws -> Data {
        try Fixtures.data("png/invalid/\(name).bin")
    }

    /// Decodes keeping the stored orientation, so pixels compare with the stored expectations.
    static func decodeStored(_ data: Data) throws -> Image {
        var options = ImageDecodeOptions()
        options.applyOrientation = false
        return try PNGCoder().decode(data, options: options)
    }

    /// The colour type byte of an encoded PNG's IHDR.
    static func colorType(of png: Data) -> UInt8 { png[png.startIndex + 25] }
}
