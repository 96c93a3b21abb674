/// Brightness, contrast and saturation in one pass (imgproxy Pro's `adjust`).
///
/// Key: `WebImageColorAdjustTransformer(%f,%f,%f)` — brightness, contrast, saturation.
///
/// Each colour channel `v` (0...255, gamma-encoded sRGB, straight alpha) becomes
/// `(v + brightness − 128) × contrast + 128`, clamped to 0...255; then saturation moves the colour
/// away from (above 1) or towards (below 1) its luma `L` (Rec. 709's weights on the encoded channels): `L + saturation × (v − L)`, so a
/// saturation of 0 gives gray pixels whose three channels are equal. Alpha is kept. The defaults
/// (0, 1, 1) change nothing.
///
/// Works on 8-bit pixels: the result has no ``Image/deepBitmap``.
public struct ImageColorAdjustTransformer: ImageTransforming {
    /// The brightnesses accepted: added to every channel, on the 0...255 scale.
    public static let brightnessRange: ClosedRange<Double> = -255...255
    /// The contrasts and saturations accepted: 1 keeps the image, 0 flattens it to mid-gray (contrast)
    /// or to its luma (saturation). Beyond 100 every channel is already at 0 or 255.
    public static let factorRange: ClosedRange<Double> = 0...100

    /// Added to each channel, within ``brightnessRange``.
    public let brightness: Double
    /// Multiplies each channel's distance from mid-gray (128), within ``factorRange``.
    public let contrast: Double
    /// Multiplies each channel's distance from the pixel's luma, within ``factorRange``.
    public let saturation: Double

    /// Values outside their ranges (NaN included) are accepted here and rejected by
    /// ``transformedImage(_:forKey:)`` with ``WebImageError/invalidArgument(_:underlying:)``.
    public init(brightness: Double = 0, contrast: Double = 1, saturation: Double = 1) {
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
    }

    public var transformerKey: String {
        "WebImageColorAdjustTransformer(\(TransformerKeyFormat.number(brightness)),"
            + "\(TransformerKeyFormat.number(contrast)),\(TransformerKeyFormat.number(saturation)))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        try ColorParameter.check(brightness, in: Self.brightnessRange, "brightness")
        try ColorParameter.check(contrast, in: Self.factorRange, "contrast")
        try ColorParameter.check(saturation, in: Self.factorRange, "saturation")
        var bitmap = TransformSupport.uprightBitmap(of: image)
        if brightness != 0 || contrast != 1 || saturation != 1 {
            bitmap = adjusted(bitmap)
        }
        return TransformSupport.result(bitmap, from: image, hasAlpha: image.hasAlpha)
    }

    private func adjusted(_ bitmap: ImageBitmap) -> ImageBitmap {
        let (offset, factor) = (Float(brightness), Float(contrast))
        // Brightness and contrast act on each channel alone: a table of the 256 values.
        let levels = (0..<256).map { value in min(max((Float(value) + offset - 128) * factor + 128, 0), 255) }
        let saturation = Float(self.saturation)
        var result = bitmap
        levels.withUnsafeBufferPointer { levels in
            result.pixels.withUnsafeMutableBufferPointer { pixels in
                var i = 0
                while i < pixels.count {
                    var r = levels[Int(pixels[i])]
                    var g = levels[Int(pixels[i + 1])]
                    var b = levels[Int(pixels[i + 2])]
                    if saturation != 1 {
                        let luma = Luma.of(r, g, b)
                        r = luma + saturation * (r - luma)
                        g = luma + saturation * (g - luma)
                        b = luma + saturation * (b - luma)
                    }
                    pixels[i] = UInt8(channel: r)
                    pixels[i + 1] = UInt8(channel: g)
                    pixels[i + 2] = UInt8(channel: b)
                    i += 4
                }
            }
        }
        return result
    }
}
