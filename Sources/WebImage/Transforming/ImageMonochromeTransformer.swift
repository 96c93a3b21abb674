/// Turns an image monochrome in the hue of a colour (imgproxy Pro's `monochrome`).
///
/// Key: `WebImageMonochromeTransformer(%f,#aarrggbb)` — intensity, colour.
///
/// Each pixel's monochrome value is ``color`` with its luma set to the pixel's (the W3C
/// compositing spec's `SetLum`, which keeps the colour's hue and clips towards the luma where a
/// channel would leave 0...1): black stays black, white stays white, and the tones between take the
/// colour's hue. A gray colour (the default `#b3b3b3`) gives plain grayscale. The result is the
/// pixel moved ``intensity`` of the way towards that value; alpha is kept, and the colour's own
/// alpha is ignored.
///
/// Works on 8-bit pixels: the result has no ``Image/deepBitmap``.
public struct ImageMonochromeTransformer: ImageTransforming {
    /// imgproxy's default palette colour.
    public static let defaultColor = RGBA8(r: 0xB3, g: 0xB3, b: 0xB3)

    /// How far each pixel moves towards its monochrome value, within 0...1 (0 changes nothing).
    public let intensity: Double
    /// The colour whose hue the monochrome takes.
    public let color: RGBA8

    /// An intensity outside 0...1 (NaN included) is accepted here and rejected by
    /// ``transformedImage(_:forKey:)`` with ``WebImageError/invalidArgument(_:underlying:)``.
    public init(intensity: Double = 1, color: RGBA8 = Self.defaultColor) {
        self.intensity = intensity
        self.color = color
    }

    public var transformerKey: String {
        "WebImageMonochromeTransformer(\(TransformerKeyFormat.number(intensity)),\(TransformerKeyFormat.color(color)))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        try ColorParameter.check(intensity, in: 0...1, "monochrome intensity")
        var bitmap = TransformSupport.uprightBitmap(of: image)
        if intensity > 0 {
            bitmap = bitmap.mixedTowardsLumaPalette(Self.palette(of: color), intensity: Float(intensity))
        }
        return TransformSupport.result(bitmap, from: image, hasAlpha: image.hasAlpha)
    }

    /// `color` at each of the 256 luma levels, on 0...255.
    static func palette(of color: RGBA8) -> [SIMD3<Float>] {
        let base = SIMD3<Float>(Float(color.r), Float(color.g), Float(color.b)) / 255
        let baseLuma = Luma.of(base.x, base.y, base.z)
        return (0..<256).map { level in
            let luma = Float(level) / 255
            var shifted = base + (luma - baseLuma)
            // ClipColor: pull the channels towards the luma until they fit, keeping the hue.
            let low = shifted.min()
            let high = shifted.max()
            if low < 0, luma - low > 0 { shifted = luma + (shifted - luma) * (luma / (luma - low)) }
            if high > 1, high - luma > 0 { shifted = luma + (shifted - luma) * ((1 - luma) / (high - luma)) }
            return shifted.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)) * 255
        }
    }
}
