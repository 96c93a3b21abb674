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
