@testable import WebImage

/// Pictures whose colours are known by construction, for the analysis tests.
enum AnalysisPictures {
    static let red = RGBA8(r: 255, g: 0, b: 0)
    static let navy = RGBA8(r: 0, g: 0, b: 128)

    /// Red rising across, green rising down, blue falling across: smooth, every colour distinct.
    static func gradient(width: Int, height: Int) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: .clear)
        for y in 0..<height {
            for x in 0..<width {
                let across = x * 255 / max(1, width - 1)
                let down = y * 255 / max(1, height - 1)
                bitmap[x, y] = RGBA8(r: UInt8(across), g: UInt8(down), b: UInt8(255 - across))
            }
        }
        return bitmap
    }

    /// The left part `left`, the rest `right`, split at `split` columns (half by default).
    static func twoColors(
        width: Int, height: Int, left: RGBA8 = red, right: RGBA8 = navy, split: Int? = nil
    ) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: right)
        for y in 0..<height {
            for x in 0..<(split ?? width / 2) { bitmap[x, y] = left }
        }
        return bitmap
    }

    /// Vertical bands of `colors`, in order, of equal width (the last takes the remainder).
    static func bands(width: Int, height: Int, colors: [RGBA8]) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: .clear)
        for y in 0..<height {
            for x in 0..<width { bitmap[x, y] = colors[min(colors.count - 1, x * colors.count / width)] }
        }
        return bitmap
    }

    /// The mean absolute difference per colour channel (R, G, B) between two bitmaps of one size.
    static func meanAbsoluteError(_ a: ImageBitmap, _ b: ImageBitmap) -> Double {
        precondition(a.size == b.size)
        var total = 0
        for (index, (x, y)) in zip(a.pixels, b.pixels).enumerated() where index % 4 != 3 {
            total += abs(Int(x) - Int(y))
        }
        return Double(total) / Double(a.width * a.height * 3)
    }
}
