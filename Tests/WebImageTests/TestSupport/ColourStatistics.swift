import Foundation

@testable import WebImage

/// Colour measurements for the colour-filter tests: luma (Rec. 709 weights on the encoded
/// channels, as the filters use), its spread, gray-ness and hue.
enum ColourStatistics {
    static func luma(_ pixel: RGBA8) -> Double {
        0.2126 * Double(pixel.r) + 0.7152 * Double(pixel.g) + 0.0722 * Double(pixel.b)
    }

    static func meanLuma(_ bitmap: ImageBitmap) -> Double {
        let lumas = allPixels(bitmap).map(luma)
        return lumas.reduce(0, +) / Double(lumas.count)
    }

    static func lumaStandardDeviation(_ bitmap: ImageBitmap) -> Double {
        let lumas = allPixels(bitmap).map(luma)
        let mean = lumas.reduce(0, +) / Double(lumas.count)
        return (lumas.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(lumas.count)).squareRoot()
    }

    /// The largest difference between two colour channels of any one pixel (0 for pure grays).
    static func maxChannelSpread(_ bitmap: ImageBitmap) -> Int {
        allPixels(bitmap).map { Int(max($0.r, $0.g, $0.b)) - Int(min($0.r, $0.g, $0.b)) }.max() ?? 0
    }

    /// The hue in degrees (0 red, 120 green, 240 blue), or nil for a gray.
    static func hue(_ pixel: RGBA8) -> Double? {
        let (r, g, b) = (Double(pixel.r), Double(pixel.g), Double(pixel.b))
        let high = max(r, g, b)
        let chroma = high - min(r, g, b)
        guard chroma > 0 else { return nil }
        let sector: Double =
            if high == r { ((g - b) / chroma).truncatingRemainder(dividingBy: 6) } else if high == g {
                (b - r) / chroma + 2
            } else { (r - g) / chroma + 4 }
        let degrees = sector * 60
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The angle between two hues, 0…180.
    static func hueDistance(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(difference, 360 - difference)
    }

    static func allPixels(_ bitmap: ImageBitmap) -> [RGBA8] {
        (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { x in bitmap[x, y] } }
    }

    /// An opaque image of many colours whose channels stay within 50…199, so that brightening or
    /// darkening it by 50 clips nothing.
    static func midtones(width: Int = 48, height: Int = 32) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: .black)
        for y in 0..<height {
            for x in 0..<width {
                bitmap[x, y] = RGBA8(
                    r: UInt8(50 + (x * 7) % 150), g: UInt8(50 + (y * 11) % 150), b: UInt8(50 + ((x + y) * 5) % 150))
            }
        }
        return bitmap
    }

    /// An opaque gray ramp from black (left) to white (right), `width` ≥ 2.
    static func grayRamp(width: Int = 256, height: Int = 4) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: .black)
        for y in 0..<height {
            for x in 0..<width {
                let level = UInt8(clamping: (x * 255 + (width - 1) / 2) / (width - 1))
                bitmap[x, y] = RGBA8(r: level, g: level, b: level)
            }
        }
        return bitmap
    }
}
