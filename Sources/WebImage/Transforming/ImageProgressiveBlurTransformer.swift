/// A Gaussian blur that grows along a direction, from none to ``radius`` (imgproxy Pro's
/// `progressive_blur`).
///
/// Key: `WebImageProgressiveBlurTransformer(%f,%f,%f,%f)` — radius, angle, start, stop.
///
/// Each pixel's place `t` along ``angle`` gives its blur: none up to ``start``, ``radius`` (σ, as
/// ``ImageBlurTransformer``) from ``stop`` on. Places are measured as ``ImageGradientTransformer``
/// measures them. Between, the image is blurred at ``levels`` evenly spaced sigmas (0 the first) and
/// each pixel mixes the two levels around `t × radius` linearly (in premultiplied alpha), so the
/// cost is at most ``levels`` − 1 blurs of the whole image, whatever the radius.
///
/// Works on 8-bit pixels: the result has no ``Image/deepBitmap``.
public struct ImageProgressiveBlurTransformer: ImageTransforming {
    /// How many blurred copies the ramp is mixed from.
    public static let levels = 6

    /// The largest blur's σ in pixels, within 0...``ImageBlurTransformer/maximumRadius`` (0 changes
    /// nothing).
    public let radius: Double
    /// The direction the blur grows in, in degrees clockwise from straight down (any finite
    /// number): 0 sharp at the top and blurred at the bottom, 90 sharp on the right, 180 sharp at the
    /// bottom, 270 sharp on the left.
    public let angle: Double
    /// Where the blur starts (none) and stops (at ``radius``), as fractions 0...1 of the image
    /// along ``angle``.
    public let start: Double
    public let stop: Double
    /// Whether a large image may be blurred on several cores at once (the default).
    public var usesMultipleCores = true

    /// Values outside their ranges (NaN included) are accepted here and rejected by
    /// ``transformedImage(_:forKey:)`` with ``WebImageError/invalidArgument(_:underlying:)``.
    public init(radius: Double, angle: Double = 0, start: Double = 0, stop: Double = 1) {
        self.radius = radius
        self.angle = angle
        self.start = start
        self.stop = stop
    }

    public var transformerKey: String {
        let numbers = [radius, angle, start, stop].map(TransformerKeyFormat.number).joined(separator: ",")
        return "WebImageProgressiveBlurTransformer(\(numbers))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        try ColorParameter.check(radius, in: 0...ImageBlurTransformer.maximumRadius, "progressive blur radius")
        try RampParameters.check(angle: angle, start: start, stop: stop)
        var result = image
        result.animation = nil
        result.isTransformed = true
        result.bitmap = TransformSupport.uprightBitmap(of: image)
        result.orientation = .up
        if radius > 0 { result.bitmap = blurred(result.bitmap) }
        return result
    }

    private func blurred(_ original: ImageBitmap) -> ImageBitmap {
        let (width, height) = (original.width, original.height)
        let ramp = LinearRamp(width: width, height: height, angle: angle, start: start, stop: stop)
        // The ramp is affine, so its largest value is at a corner: no level above it is needed.
        let corners = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]
        let highest = corners.map { ramp.value(x: $0.0, y: $0.1) }.max() ?? 0
        let steps = Double(Self.levels - 1)
        var result = original
        var previous = original
        for level in 1..<Self.levels {
            let floor = Double(level - 1)
            guard highest * steps > floor else { break }
            let current = original.gaussianBlurred(sigma: radius * Double(level) / steps, parallel: usesMultipleCores)
            result.pixels.withUnsafeMutableBufferPointer { out in
                previous.pixels.withUnsafeBufferPointer { low in
                    current.pixels.withUnsafeBufferPointer { high in
                        for y in 0..<height {
                            for x in 0..<width {
                                // This level and the one below cover positions floor...floor + 1.
                                let position = ramp.value(x: x, y: y) * steps - floor
                                guard position > 0, position <= 1 else { continue }
                                Self.mix(low, high, Float(position), at: (y * width + x) * 4, into: out)
                            }
                        }
                    }
                }
            }
            previous = current
        }
        return result
    }

    /// `out[i…]` = `low` and `high` mixed by `amount` of `high`, in premultiplied alpha.
    @inline(__always)
    private static func mix(
        _ low: UnsafeBufferPointer<UInt8>, _ high: UnsafeBufferPointer<UInt8>, _ amount: Float, at i: Int,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        let lowAlpha = Float(low[i + 3]) * (1 - amount)
        let highAlpha = Float(high[i + 3]) * amount
        let alpha = lowAlpha + highAlpha
        guard alpha > 0 else {
            for c in 0..<4 { out[i + c] = 0 }
            return
        }
        for c in 0..<3 {
            let premultiplied = Float(low[i + c]) * lowAlpha + Float(high[i + c]) * highAlpha
            out[i + c] = UInt8(channel: premultiplied / alpha)
        }
        out[i + 3] = UInt8(channel: alpha)
    }
}
