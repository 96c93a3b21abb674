/// The size an SVG document gives itself, in pixels (CSS pixels, 96 per inch), worked out as
/// librsvg's `rsvg-convert` does:
/// 1. `width` and `height` both in absolute or font units: those.
/// 2. One of them absolute and a `viewBox`: that one, and the other from the `viewBox`'s
///    aspect ratio.
/// 3. Neither absolute (missing, which means 100 %, or a percentage) and a `viewBox`: the
///    `viewBox`'s size.
/// 4. Otherwise the document has no size of its own, and it is refused (`rsvg-convert` measures
///    the drawing instead, which crops whatever lies left of or above the origin).
struct SVGIntrinsicSize: Equatable {
    enum Unit: Equatable {
        case percent, pixels, em, ex, inches, centimetres, millimetres, points, picas
    }

    /// A length as written; a percentage's value is a fraction (1 is 100 %).
    struct Length: Equatable {
        var value: Double
        var unit: Unit
    }

    /// The font size `em` and `ex` are counted in when the document's own cannot be asked:
    /// librsvg's default.
    static let defaultFontSize = 12.0

    let width: Double
    let height: Double

    /// The size from the root element's `width`, `height` and `viewBox` (nil when absent), and
    /// the pixel size librsvg worked out when both are absolute (`bothInPixels`).
    init(width: Length?, height: Length?, viewBox: (width: Double, height: Double)?, bothInPixels: (Double, Double)?)
        throws(WebImageError)
    {
        let absoluteWidth = width.flatMap(Self.pixels)
        let absoluteHeight = height.flatMap(Self.pixels)
        let box = viewBox.flatMap {
            $0.width > 0 && $0.height > 0 && $0.width.isFinite && $0.height.isFinite ? $0 : nil
        }
        switch (absoluteWidth, absoluteHeight, box) {
        case (.some, .some, _):
            let (w, h) = bothInPixels ?? (absoluteWidth ?? 0, absoluteHeight ?? 0)
            (self.width, self.height) = (w, h)
        case (.some(let w), nil, .some(let box)):
            (self.width, self.height) = (w, w * box.height / box.width)
        case (nil, .some(let h), .some(let box)):
            (self.width, self.height) = (h * box.width / box.height, h)
        case (nil, nil, .some(let box)):
            (self.width, self.height) = (box.width, box.height)
        default:
            throw .badImageData("the SVG has no size: neither an absolute width and height nor a viewBox")
        }
        guard self.width > 0, self.height > 0, self.width.isFinite, self.height.isFinite else {
            throw .badImageData("the SVG claims a size of \(self.width)x\(self.height)")
        }
    }

    /// `length` in pixels, or nil for a percentage.
    static func pixels(_ length: Length) -> Double? {
        let perInch = 96.0
        switch length.unit {
        case .percent: return nil
        case .pixels: return length.value
        case .em: return length.value * defaultFontSize
        case .ex: return length.value * defaultFontSize / 2
        case .inches: return length.value * perInch
        case .centimetres: return length.value * perInch / 2.54
        case .millimetres: return length.value * perInch / 25.4
        case .points: return length.value * perInch / 72
        case .picas: return length.value * perInch / 6
        }
    }

    /// Whole pixels, each side rounded up (a fractional side keeps its partly covered pixels).
    func pixelSize() throws(WebImageError) -> PixelSize {
        do {
            return try PixelSize(width: width, height: height, rounding: .up)
        } catch {
            throw .badImageData("the SVG's size \(width)x\(height) is no usable pixel size")
        }
    }

    /// The size to render at for `options`: the thumbnail box, which unlike a raster's may be
    /// larger than the document (a vector drawing renders sharp at any size), fitted keeping
    /// the aspect ratio unless ``ImageDecodeOptions/preserveAspectRatio`` is off; a byte limit
    /// (``ImageDecodeOptions/scaleDownLimitBytes``) only ever makes it smaller.
    static func renderSize(_ natural: PixelSize, options: ImageDecodeOptions) -> PixelSize {
        if let limit = options.scaleDownLimitBytes, limit > 0 {
            return DecodeGeometry.targetSize(storedSize: natural, orientation: .up, frameCount: 1, options: options)
                ?? natural
        }
        let box = options.thumbnailPixelSize
        guard box.isPositive else { return natural }
        return DecodeGeometry.scaledSize(
            natural, fitting: box, preserveAspectRatio: options.preserveAspectRatio, shouldScaleUp: true)
    }
}
