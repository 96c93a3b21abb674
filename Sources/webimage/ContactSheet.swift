import WebImage

/// A grid of thumbnails with captions, failures drawn as marked tiles: the demo's picture of
/// what it loaded.
struct ContactSheet {
    /// One tile: a caption and the loaded image, or nil for a failure.
    struct Tile {
        var caption: String
        var image: Image?
    }

    static let columns = 4
    static let thumbnailSide = 96
    static let tileWidth = 120
    static let tileHeight = 116
    static let gap = 8

    static let background = RGBA8(r: 48, g: 48, b: 52)
    static let tileColor = RGBA8(r: 236, g: 236, b: 236)
    static let failureColor = RGBA8(r: 255, g: 222, b: 222)
    static let crossColor = RGBA8(r: 210, g: 30, b: 30)

    /// The sheet's size for `count` tiles.
    static func size(tileCount count: Int) -> PixelSize {
        let columns = min(max(count, 1), Self.columns)
        let rows = max((count + Self.columns - 1) / Self.columns, 1)
        return PixelSize(width: columns * tileWidth + (columns + 1) * gap, height: rows * tileHeight + (rows + 1) * gap)
    }

    /// Draws `tiles` left to right, top to bottom, and returns the sheet as an image.
    static func render(_ tiles: [Tile]) throws -> Image {
        let size = size(tileCount: tiles.count)
        var sheet = ImageBitmap(width: size.width, height: size.height, fill: background)
        let fit = ImageResizingTransformer(
            size: PixelSize(width: thumbnailSide, height: thumbnailSide), scaleMode: .aspectFit)
        for (index, tile) in tiles.enumerated() {
            let left = gap + (index % columns) * (tileWidth + gap)
            let top = gap + (index / columns) * (tileHeight + gap)
            fill(
                &sheet, x: left, y: top, width: tileWidth, height: tileHeight,
                color: tile.image == nil ? failureColor : tileColor)
            let boxLeft = left + (tileWidth - thumbnailSide) / 2
            let boxTop = top + 4
            if let image = tile.image {
                var still = image
                still.animation = nil
                let thumbnail = try fit.transformedImage(still, forKey: tile.caption)
                let x = boxLeft + (thumbnailSide - thumbnail.width) / 2
                let y = boxTop + (thumbnailSide - thumbnail.height) / 2
                blend(thumbnail.bitmap, onto: &sheet, x: x, y: y)
            } else {
                drawCross(&sheet, x: boxLeft + 12, y: boxTop + 12, side: thumbnailSide - 24)
            }
            let caption = String(tile.caption.prefix((tileWidth - 4) / BitmapFont.advance))
            let textX = left + (tileWidth - BitmapFont.width(of: caption)) / 2
            BitmapFont.draw(caption, into: &sheet, x: textX, y: boxTop + thumbnailSide + 4, color: .black)
        }
        return Image(bitmap: sheet, format: .png, hasAlpha: false)
    }

    private static func fill(_ bitmap: inout ImageBitmap, x: Int, y: Int, width: Int, height: Int, color: RGBA8) {
        for py in max(y, 0)..<min(y + height, bitmap.height) {
            for px in max(x, 0)..<min(x + width, bitmap.width) { bitmap[px, py] = color }
        }
    }

    /// Source-over of straight-alpha pixels onto an opaque sheet.
    private static func blend(_ source: ImageBitmap, onto sheet: inout ImageBitmap, x: Int, y: Int) {
        for sy in 0..<source.height {
            for sx in 0..<source.width {
                let px = x + sx
                let py = y + sy
                guard px >= 0, py >= 0, px < sheet.width, py < sheet.height else { continue }
                let s = (sy * source.width + sx) * 4
                let d = (py * sheet.width + px) * 4
                let alpha = Int(source.pixels[s + 3])
                for channel in 0..<3 {
                    let mixed =
                        (Int(source.pixels[s + channel]) * alpha + Int(sheet.pixels[d + channel]) * (255 - alpha)) / 255
                    sheet.pixels[d + channel] = UInt8(mixed)
                }
            }
        }
    }

    /// Two thick diagonals across a square.
    private static func drawCross(_ bitmap: inout ImageBitmap, x: Int, y: Int, side: Int) {
        for step in 0..<side {
            for thickness in -3...3 {
                bitmap.setClipped(x + step + thickness, y + step, crossColor)
                bitmap.setClipped(x + side - 1 - step + thickness, y + step, crossColor)
            }
        }
    }
}
