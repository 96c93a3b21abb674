/// Which corners of a rectangle to round (`UIRectCorner`; the raw values appear in keys).
public struct RectCorners: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let topLeft = RectCorners(rawValue: 1)
    public static let topRight = RectCorners(rawValue: 2)
    public static let bottomLeft = RectCorners(rawValue: 4)
    public static let bottomRight = RectCorners(rawValue: 8)
    /// Every corner: `UIRectCornerAllCorners`, which is `~0UL`, so keys print 18446744073709551615.
    public static let allCorners = RectCorners(rawValue: .max)
}

/// Rounds corners, with an optional border (SDWebImage's `SDImageRoundCornerTransformer`).
///
/// Key: `SDImageRoundCornerTransformer(%f,%lu,%f,#aarrggbb)` — radius, corners, border width,
/// border colour (`(null)` without one).
///
/// Outside the rounded shape is transparent. The border is the band `borderWidth` wide just
/// inside the shape's edge; the image shows inside that band (with no border colour the band is
/// transparent, as SDWebImage clips the image to the inset path). Edges are antialiased from
/// each pixel's signed distance to the shape, which is exact coverage for straight edges. The
/// radius is clamped to half the shorter side, as `UIBezierPath` does. Lengths are in pixels.
public struct ImageRoundCornerTransformer: ImageTransforming {
    public let radius: Double
    public let corners: RectCorners
    public let borderWidth: Double
    public let borderColor: RGBA8?

    /// `radius` must be positive and finite and `borderWidth` finite and not negative; otherwise
    /// transforming throws ``WebImageError/invalidArgument(_:underlying:)``.
    public init(radius: Double, corners: RectCorners = .allCorners, borderWidth: Double = 0, borderColor: RGBA8? = nil)
    {
        self.radius = radius
        self.corners = corners
        self.borderWidth = borderWidth
        self.borderColor = borderColor
    }

    public var transformerKey: String {
        "SDImageRoundCornerTransformer(\(TransformerKeyFormat.number(radius)),\(corners.rawValue),"
            + "\(TransformerKeyFormat.number(borderWidth)),\(TransformerKeyFormat.color(borderColor)))"
    }

    public func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
        guard radius.isFinite, radius > 0 else {
            throw .invalidArgument("corner radius must be positive and finite, got \(radius)")
        }
        guard borderWidth.isFinite, borderWidth >= 0 else {
            throw .invalidArgument("border width must be finite and not negative, got \(borderWidth)")
        }
        var bitmap = TransformSupport.uprightBitmap(of: image)
        let shape = RoundedRectShape(
            width: Double(bitmap.width), height: Double(bitmap.height), radius: radius, corners: corners)
        let border = borderColor ?? .clear
        let band = borderWidth
        let width = bitmap.width
        let height = bitmap.height
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let distance = shape.signedDistance(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    // Coverage of a one-pixel footprint by the shape and by the shape inset by the border.
                    let outer = min(max(0.5 - distance, 0), 1)
                    let inner = min(max(0.5 - (distance + band), 0), 1)
                    if inner >= 1 { continue }
                    let i = (y * width + x) * 4
                    let sourcePixel = RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
                    let blended = PremultipliedColor(sourcePixel).scaled(by: inner)
                        .adding(PremultipliedColor(border).scaled(by: outer - inner))
                    let out = blended.straight
                    pixels[i] = out.r
                    pixels[i + 1] = out.g
                    pixels[i + 2] = out.b
                    pixels[i + 3] = out.a
                }
            }
        }
        return TransformSupport.result(bitmap, from: image, hasAlpha: true)
    }
}

/// A rectangle from (0,0) to (width,height) with some corners rounded; signed distances are
/// negative inside.
struct RoundedRectShape {
    let halfWidth: Double
    let halfHeight: Double
    /// Radii for top-left, top-right, bottom-left, bottom-right (0 where not rounded).
    let radii: (Double, Double, Double, Double)

    init(width: Double, height: Double, radius: Double, corners: RectCorners) {
        halfWidth = width / 2
        halfHeight = height / 2
        let r = min(radius, halfWidth, halfHeight)
        radii = (
            corners.contains(.topLeft) ? r : 0, corners.contains(.topRight) ? r : 0,
            corners.contains(.bottomLeft) ? r : 0, corners.contains(.bottomRight) ? r : 0
        )
    }

    /// The exact Euclidean distance from (x, y) to the edge: a box shrunk by the corner's radius,
    /// grown back by a disc of that radius.
    func signedDistance(x: Double, y: Double) -> Double {
        let px = x - halfWidth
        let py = y - halfHeight
        let r =
            px < 0
            ? (py < 0 ? radii.0 : radii.2)
            : (py < 0 ? radii.1 : radii.3)
        let qx = abs(px) - halfWidth + r
        let qy = abs(py) - halfHeight + r
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - r
    }
}
