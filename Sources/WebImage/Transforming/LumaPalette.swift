/// Luma and luma-indexed palettes: what the monochrome and duotone transformers share.
///
/// Luma is Rec. 709's weighting (0.2126 R + 0.7152 G + 0.0722 B) of the gamma-encoded sRGB
/// channels, as CSS filter effects and most image editors compute it; no linear-light conversion.
enum Luma {
    /// The weights of red, green and blue.
    static let red: Float = 0.2126
    static let green: Float = 0.7152
    static let blue: Float = 0.0722

    /// Luma 0...255 in whole steps: the weights in 256ths (54, 183, 19), rounded half up.
    @inline(__always)
    static func level(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        (54 * Int(r) + 183 * Int(g) + 19 * Int(b) + 128) >> 8
    }

    /// Luma of channels on any scale.
    @inline(__always)
    static func of(_ r: Float, _ g: Float, _ b: Float) -> Float {
        red * r + green * g + blue * b
    }
}

extension ImageBitmap {
    /// Each pixel moved `intensity` (0...1) of the way towards `palette[luma]`, where `palette`
    /// holds 256 colours on 0...255 indexed by ``Luma/level(_:_:_:)``; alpha is kept.
    func mixedTowardsLumaPalette(_ palette: [SIMD3<Float>], intensity: Float) -> ImageBitmap {
        precondition(palette.count == 256, "a luma palette has 256 entries")
        var result = self
        palette.withUnsafeBufferPointer { palette in
            result.pixels.withUnsafeMutableBufferPointer { pixels in
                var i = 0
                while i < pixels.count {
                    let target = palette[Luma.level(pixels[i], pixels[i + 1], pixels[i + 2])]
                    let own = SIMD3<Float>(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]))
                    let mixed = own + (target - own) * intensity
                    pixels[i] = UInt8(channel: mixed.x)
                    pixels[i + 1] = UInt8(channel: mixed.y)
                    pixels[i + 2] = UInt8(channel: mixed.z)
                    i += 4
                }
            }
        }
        return result
    }
}

/// Checks shared by the colour transformers' parameters.
enum ColorParameter {
    /// Throws ``WebImageError/invalidArgument(_:underlying:)`` unless `value` is within `range`
    /// (NaN never is).
    static func check(_ value: Double, in range: ClosedRange<Double>, _ what: String) throws(WebImageError) {
        guard range.contains(value) else {
            throw .invalidArgument("\(what) \(value) must be a number within \(range.lowerBound)...\(range.upperBound)")
        }
    }
}
