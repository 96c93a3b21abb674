/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// 0×0, which SDWebImage's thumbnail options read as "off".
    public static let zero = PixelSize(width: 0, height: 0)

    /// Whether both sides are positive.
    public var isPositive: Bool { width > 0 && height > 0 }

    /// `width × height`, saturating instead of overflowing.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    public var description: String { "\(width)x\(height)" }
}

extension PixelSize {
    /// The largest side a size made from floating-point lengths may have: `Int32.max`, beyond
    /// any image a codec can hold, so that products of two sides never overflow `Int`.
    public static let maximumSide = Int(Int32.max)

    /// A size from floating-point lengths (a layout's points times a screen scale, say), each
    /// rounded by `rule`. Throws ``WebImageError/invalidArgument(_:underlying:)`` when a side is
    /// NaN, infinite, negative or above ``maximumSide`` after rounding.
    public init(
        width: Double, height: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) throws(WebImageError) {
        self.init(
            width: try PixelSize.side(width, rule, "width", in: 0...Self.maximumSide),
            height: try PixelSize.side(height, rule, "height", in: 0...Self.maximumSide))
    }

    /// `value` rounded by `rule`, or an error naming `what` unless it lies within `range`.
    static func side(
        _ value: Double, _ rule: FloatingPointRoundingRule, _ what: String, in range: ClosedRange<Int>
    ) throws(WebImageError) -> Int {
        let rounded = value.rounded(rule)
        guard rounded >= Double(range.lowerBound), rounded <= Double(range.upperBound) else {
            throw .invalidArgument("\(what) \(value) must be a finite number within \(range)")
        }
        return Int(clamping: rounded)
    }
}
