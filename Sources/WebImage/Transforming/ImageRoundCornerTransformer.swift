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
/// The geometry is SDWebImage's, drawn at scale 1 with lengths in pixels:
/// - the image is clipped to the rounded rectangle inset by `borderWidth` (so with no border
///   colour a band of that width is transparent);
/// - the border is a stroke `borderWidth` wide along the rounded rectangle inset by
///   `floor(borderWidth) + 0.5`, with corner radius `radius - 0.5` (0 below that); on a 1-pixel
///   border that puts the stroke exactly on the second column and row, leaving the outermost
///   ones clear, as SDWebImage's does;
/// - a border width of half the shorter side or more leaves the image fully transparent, as
///   SDWebImage draws nothing then.
///
/// Outside the rounded shape is transparent. Edges are antialiased from each pixel's signed
/// distance to the shape, which is exact coverage for straight edges. Radii are clamped to half
/// the shorter side of their rectangle, as `UIBezierPath` does.
///
/// Works on 8-bit pixels: the result has no ``Image/deepBitmap``.
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
        let width = bitmap.width
        let height = bitmap.height
        guard borderWidth < Double(min(width, height)) / 2 else {
            let clear = ImageBitmap(width: width, height: height, fill: .clear)
            return TransformSupport.result(clear, from: image, hasAlpha: true)
        }
        let clip = RoundedRectShape(
            width: Double(width), height: Double(height), inset: borderWidth, radius: radius, corners: corners)
        let stroke = borderColor.flatMap { color in
            borderWidth > 0
                ? BorderStroke(
                    shape: RoundedRectShape(
                        width: Double(width), height: Double(height), inset: borderWidth.rounded(.down) + 0.5,
                        radius: radius > 0.5 ? radius - 0.5 : 0, corners: corners),
                    halfWidth: borderWidth / 2, color: PremultipliedColor(color))
                : nil
        }
        bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let cx = Double(x) + 0.5
                    let cy = Double(y) + 0.5
                    let imageCoverage = Self.coverage(clip.signedDistance(x: cx, y: cy))
                    let strokeCoverage = stroke?.coverage(x: cx, y: cy) ?? 0
                    if imageCoverage >= 1 && strokeCoverage <= 0 { continue }
                    let i = (y * width + x) * 4
                    let source = RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
                    var out = PremultipliedColor(source).scaled(by: imageCoverage)
                    if let stroke, strokeCoverage > 0 {
                        // The stroke is drawn over the clipped image (source over).
                        out = stroke.color.scaled(by: strokeCoverage)
                            .adding(out.scaled(by: 1 - stroke.color.a * strokeCoverage))
                    }
                    let straight = out.straight
                    pixels[i] = straight.r
                    pixels[i + 1] = straight.g
                    pixels[i + 2] = straight.b
                    pixels[i + 3] = straight.a
                }
            }
        }
        return TransformSupport.result(bitmap, from: image, hasAlpha: true)
    }

    /// How much of a one-pixel footprint whose centre is `distance` inside (negative) or outside
    /// an edge lies inside it.
    static func coverage(_ distance: Double) -> Double { min(max(0.5 - distance, 0), 1) }
}

/// A stroke centred on a shape's edge.
private struct BorderStroke {
    let shape: RoundedRectShape
    let halfWidth: Double
    let color: PremultipliedColor

    /// The part of the pixel centred at (x, y) within `halfWidth` of the edge.
    func coverage(x: Double, y: Double) -> Double {
        let distance = shape.signedDistance(x: x, y: y)
        return ImageRoundCornerTransformer.coverage(distance - halfWidth)
            - ImageRoundCornerTransformer.coverage(distance + halfWidth)
    }
}

/// The rectangle from (0,0) to (width,height), inset by `inset` on every side, with some
/// corners rounded; signed distances are negative inside.
struct RoundedRectShape {
    let centerX: Double
    let centerY: Double
    let halfWidth: Double
    let halfHeight: Double
    /// Radii for top-left, top-right, bottom-left, bottom-right (0 where not rounded).
    let radii: (Double, Double, Double, Double)

    init(width: Double, height: Double, inset: Double = 0, radius: Double, corners: RectCorners) {
        centerX = width / 2
        centerY = height / 2
        halfWidth = max(width / 2 - inset, 0)
        halfHeight = max(height / 2 - inset, 0)
        let r = min(radius, halfWidth, halfHeight)
        radii = (
            corners.contains(.topLeft) ? r : 0, corners.contains(.topRight) ? r : 0,
            corners.contains(.bottomLeft) ? r : 0, corners.contains(.bottomRight) ? r : 0
        )
    }

    /// The exact Euclidean distance from (x, y) to the edge: a box shrunk by the corner's radius,
    /// grown back by a disc of that radius.
    func signedDistance(x: Double, y: Double) -> Double {
        let px = x - centerX
        let py = y - centerY
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
