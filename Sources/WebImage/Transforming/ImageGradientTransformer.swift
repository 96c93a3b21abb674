/// Lays a colour over the image that fades in along a direction (imgproxy Pro's `gradient`).
///
/// Key: `WebImageGradientTransformer(%f,#aarrggbb,%f,%f,%f)` — opacity, colour, angle, start, stop.
///
/// The colour is composited source-over onto each pixel with the alpha `opacity × t × a`, where
/// `a` is the colour's own alpha and `t` is the pixel's place along ``angle``: 0 up to ``start``, 1
/// from ``stop`` on, linear between (a step when they are equal). Positions are measured as CSS
/// measures a linear gradient: each pixel's centre is projected onto a line through the image's
/// centre in the direction of ``angle``, the corner pixel where the gradient begins at 0 and the
/// opposite one at 1. So the gradient is fully transparent at the start and at ``opacity`` at the
/// stop; where the image is transparent the colour shows with that alpha.
///
/// Works on 8-bit pixels: the result has no ``Image/deepBitmap``.
public struct ImageGradientTransformer: ImageTransforming {
    /// The overlay's opacity at the stop, within 0...1 (0 changes nothing).
    public let opacity: Double
    /// The overlay's colour.
    public let color: RGBA8
    /// The direction the gradient runs in, in degrees clockwise from straight down (any finite
    /// number): 0 down, 90 leftwards, 180 up, 270 rightwards.
    public let angle: Double
    /// Where the gradient starts (transparent) and stops (at ``opacity``), as fractions 0...1 of
    /// the image along ``angle``.
    public let start: Double
    public let stop: Double

    /// Values outside their ranges (NaN included) are accepted here and rejected by
    /// ``transformedImage(_:forKey:)`` with ``WebImageError/invalidArgument(_:underlying:)``.
    public init(opacity: Double, color: RGBA8 = .black, angle: Double = 0, start: Double = 0, stop: Double = 1) {
        self.opacity = opacity
        self.color = color
        self.angle = angle
        self.start = start
        self.stop = stop
    }

    public var transformerKey: String {
        let numbers = [angle, start, stop].map(TransformerKeyFormat.number).joined(separator: ",")
        return "WebImageGradientTransformer(\(TransformerKeyFormat.number(opacity)),"
            + "\(TransformerKeyFormat.color(color)),\(numbers))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        try ColorParameter.check(opacity, in: 0...1, "gradient opacity")
        try RampParameters.check(angle: angle, start: start, stop: stop)
        var bitmap = TransformSupport.uprightBitmap(of: image)
        let strength = Float(opacity) * Float(color.a) / 255
        guard strength > 0 else { return TransformSupport.result(bitmap, from: image, hasAlpha: image.hasAlpha) }
        let ramp = LinearRamp(width: bitmap.width, height: bitmap.height, angle: angle, start: start, stop: stop)
        let top = SIMD3<Float>(Float(color.r), Float(color.g), Float(color.b))
        let (width, height) = (bitmap.width, bitmap.height)
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let alpha = strength * Float(ramp.value(x: x, y: y))
                    guard alpha > 0 else { continue }
                    let i = (y * width + x) * 4
                    let below = Float(pixels[i + 3]) / 255
                    let out = alpha + below * (1 - alpha)
                    let under = SIMD3<Float>(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]))
                    let mixed = (top * alpha + under * (below * (1 - alpha))) / out
                    pixels[i] = UInt8(channel: mixed.x)
                    pixels[i + 1] = UInt8(channel: mixed.y)
                    pixels[i + 2] = UInt8(channel: mixed.z)
                    pixels[i + 3] = UInt8(channel: out * 255)
                }
            }
        }
        // Compositing only ever raises alpha.
        return TransformSupport.result(bitmap, from: image, hasAlpha: image.hasAlpha)
    }
}
