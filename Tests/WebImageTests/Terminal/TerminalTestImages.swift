@testable import WebImage

/// Small bitmaps the terminal rendering tests draw.
enum TerminalTestImages {
    static let red = RGBA8(r: 220, g: 20, b: 30)
    static let blue = RGBA8(r: 10, g: 40, b: 200)

    /// A bitmap whose pixel at (x, y) is `color(x, y)`.
    static func bitmap(width: Int, height: Int, _ color: (Int, Int) -> RGBA8) -> ImageBitmap {
        var bitmap = ImageBitmap(width: width, height: height, fill: .clear)
        for y in 0..<height {
            for x in 0..<width { bitmap[x, y] = color(x, y) }
        }
        return bitmap
    }
}

extension VirtualTerminal.RGB {
    init(_ color: RGBA8) { self.init(r: color.r, g: color.g, b: color.b) }
}
