/// Maps an image onto a two-colour ramp by luma (imgproxy Pro's `duotone`).
///
/// Key: `WebImageDuotoneTransformer(%f,#aarrggbb,#aarrggbb)` — intensity, dark colour, light colour.
///
/// A pixel of luma `L` (0...255, Rec. 709's weights on the encoded channels) has the duotone value `dark + (light − dark) × L / 255`:
/// black becomes ``dark``, white becomes ``light``, and the tones between are mixed linearly. The
/// result is the pixel moved ``intensity`` of the way towards that value; alpha is kept, and the
/// colours' own alpha is ignored.
///
/// Works on 8-bit pixels: the result has no ``Image/deepBitmap``.
public struct ImageDuotoneTransformer: ImageTransforming {
    /// How far each pixel moves towards its duotone value, within 0...1 (0 changes nothing).
    public let intensity: Double
    /// The colour of black (the shadows).
    public let dark: RGBA8
    /// The colour of white (the highlights).
    public let light: RGBA8

    /// An intensity outside 0...1 (NaN included) is accepted here and rejected by
    /// ``transformedImage(_:forKey:)`` with ``WebImageError/invalidArgument(_:underlying:)``.
    public init(intensity: Double = 1, dark: RGBA8 = .black, light: RGBA8 = .white) {
        self.intensity = intensity
        self.dark = dark
        self.light = light
    }

    public var transformerKey: String {
        "WebImageDuotoneTransformer(\(TransformerKeyFormat.number(intensity)),"
            + "\(TransformerKeyFormat.color(dark)),\(TransformerKeyFormat.color(light)))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        try ColorParameter.check(intensity, in: 0...1, "duotone intensity")
        var bitmap = TransformSupport.uprightBitmap(of: image)
        if intensity > 0 {
            let low = SIMD3<Float>(Float(dark.r), Float(dark.g), Float(dark.b))
            let high = SIMD3<Float>(Float(light.r), Float(light.g), Float(light.b))
            let palette = (0..<256).map { level in low + (high - low) * (Float(level) / 255) }
            bitmap = bitmap.mixedTowardsLumaPalette(palette, intensity: Float(intensity))
        }
        return TransformSupport.result(bitmap, from: image, hasAlpha: image.hasAlpha)
    }
}
