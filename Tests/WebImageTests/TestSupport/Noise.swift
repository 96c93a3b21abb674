@testable import WebImage

/// What ``ImageBitmap/noise(width:height:seed:alpha:)`` puts in the alpha channel.
enum NoiseAlpha {
    /// 255 everywhere.
    case opaque
    /// Random, as the colours are.
    case random
    /// 0, 128 and 255 by column, repeating: invisible, half visible and opaque pixels side by side.
    case columns
    /// The value `alpha(x, y)` gives at each pixel.
    case pattern((_ x: Int, _ y: Int) -> UInt8)
}

extension ImageBitmap {
    /// Seeded noise: every pixel its own colour (one ``SplitMix64`` value a pixel), so that
    /// permutations, palettes and resampling errors show, and the same pixels on every run.
    static func noise(width: Int, height: Int, seed: UInt64 = 7, alpha: NoiseAlpha = .opaque) -> ImageBitmap {
        var generator = SplitMix64(seed: seed)
        var bitmap = ImageBitmap(width: width, height: height, fill: .clear)
        for y in 0..<height {
            for x in 0..<width {
                let value = generator.next()
                let a: UInt8 =
                    switch alpha {
                    case .opaque: 255
                    case .random: UInt8(truncatingIfNeeded: value >> 24)
                    case .columns: [0, 128, 255][x % 3]
                    case .pattern(let alpha): alpha(x, y)
                    }
                bitmap[x, y] = RGBA8(
                    r: UInt8(truncatingIfNeeded: value), g: UInt8(truncatingIfNeeded: value >> 8),
                    b: UInt8(truncatingIfNeeded: value >> 16), a: a)
            }
        }
        return bitmap
    }
}
