/// A rectangle in whole pixels: origin at the top left, `x` to the right, `y` down.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}

extension ImageBitmap {
    /// The pixels inside `rect`, which must lie within the bitmap and have a positive size
    /// (else ``WebImageError/invalidArgument(_:underlying:)``).
    public func cropped(to rect: PixelRect) throws(WebImageError) -> ImageBitmap {
        try rect.checkCrop(of: size)
        if rect.x == 0, rect.y == 0, rect.size == size { return self }
        let rowBytes = rect.width * 4
        return pixels.withUnsafeBufferPointer { src in
            ImageBitmap(width: rect.width, height: rect.height) { dst in
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * 4
                    let to = row * rowBytes
                    UnsafeMutableRawPointer(dst.baseAddress! + to).copyMemory(
                        from: src.baseAddress! + from, byteCount: rowBytes)
                }
            }
        }
    }
}

extension PixelRect {
    /// Throws ``WebImageError/invalidArgument(_:underlying:)`` unless this rectangle has a positive
    /// size and lies within a bitmap of `size`.
    func checkCrop(of size: PixelSize) throws(WebImageError) {
        guard width > 0, height > 0, x >= 0, y >= 0, x <= size.width - width, y <= size.height - height else {
            throw .invalidArgument("crop \(self) does not fit inside the \(size) bitmap")
        }
    }

    /// A rectangle from floating-point coordinates, each rounded by `rule`. Throws
    /// ``WebImageError/invalidArgument(_:underlying:)`` when a value is NaN or infinite, when `x`
    /// or `y` lies outside ±``PixelSize/maximumSide``, or when a side is negative or above it.
    public init(
        x: Double, y: Double, width: Double, height: Double,
        rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) throws(WebImageError) {
        let limit = PixelSize.maximumSide
        let size = try PixelSize(width: width, height: height, rounding: rule)
        self.init(
            x: try PixelSize.side(x, rule, "x", in: -limit...limit),
            y: try PixelSize.side(y, rule, "y", in: -limit...limit), width: size.width, height: size.height)
    }
}
