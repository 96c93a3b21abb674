import WebImage

/// Turns an `ImageBitmap` into the bytes that draw it in a terminal, as half blocks, kitty
/// graphics or sixels (``TerminalGraphics``).
///
/// Every rendering starts at the cursor's row, in the column the cursor is in (column 0 after a
/// line feed), and ends with the cursor at the start of the line below the image, having used
/// ``TerminalRendering/rows`` lines; moving up that many lines (`ESC [ n A`, then `\r`) brings
/// the cursor back to where the image started, which is how ``TerminalFramePresenter`` redraws
/// animation frames in place. Line ends are bare line feeds, as a terminal's output processing
/// (`ONLCR`) turns them into a new line.
///
/// The image is fitted into a number of columns, keeping its aspect ratio for cells about twice
/// as tall as wide (``cellPixelSize``), and never made wider than its own pixels; the
/// resampling is a box filter (the average of the source pixels under each output pixel, alpha
/// weighted).
public struct TerminalImageRenderer: Sendable {
    /// The protocol the bytes speak.
    public var graphics: TerminalGraphics
    /// The size in pixels of one terminal cell (kitty and sixel lay out pixels in cells of this
    /// size; half blocks use its aspect only through their fixed 1×2 split). 8×16 unless the
    /// terminal reports its own (`TIOCGWINSZ`'s pixel fields).
    public var cellPixelSize: PixelSize
    /// The colour partly transparent pixels are blended over. Nil: pixels less than half opaque
    /// show the terminal's own background (`ESC [ 49 m` for half blocks, unset pixels for sixel,
    /// the alpha channel itself for kitty) and the others are drawn opaque.
    public var background: RGBA8?

    public init(
        graphics: TerminalGraphics = .halfBlocks, cellPixelSize: PixelSize = PixelSize(width: 8, height: 16),
        background: RGBA8? = nil
    ) {
        self.graphics = graphics
        self.cellPixelSize = cellPixelSize
        self.background = background
    }

    /// Where an image goes: its size in cells and the pixels it is resampled to.
    public struct Layout: Sendable, Equatable {
        /// Columns the image covers.
        public var columns: Int
        /// Lines the image covers.
        public var rows: Int
        /// The pixel size the bitmap is resampled to before it is encoded.
        public var pixelSize: PixelSize
    }

    /// The layout of an image of `size` pixels given at most `columns` columns and `maxRows` lines.
    ///
    /// Throws `WebImageError/invalidArgument(_:underlying:)` when `columns` or `maxRows` is
    /// below 1 or the cell size is not positive.
    public func layout(for size: PixelSize, columns: Int, maxRows: Int? = nil) throws(WebImageError) -> Layout {
        guard columns >= 1 else { throw .invalidArgument("the width must be at least 1 column, not \(columns)") }
        if let maxRows, maxRows < 1 {
            throw .invalidArgument("the height must be at least 1 line, not \(maxRows)")
        }
        guard size.isPositive else { throw .invalidArgument("cannot show an image of \(size) pixels") }
        // Half blocks: one pixel per column, two per line. Graphics: cells of cellPixelSize.
        let cell = graphics == .halfBlocks ? PixelSize(width: 1, height: 2) : cellPixelSize
        guard cell.isPositive else { throw .invalidArgument("the cell size \(cell) must be positive") }
        let naturalColumns = (size.width + cell.width - 1) / cell.width
        var shownWidth = min(columns, naturalColumns) * cell.width
        var shownHeight = scaled(size.height, by: shownWidth, over: size.width)
        if let maxRows, shownHeight > maxRows * cell.height {
            shownHeight = maxRows * cell.height
            shownWidth = min(shownWidth, scaled(size.width, by: shownHeight, over: size.height))
        }
        let pixelSize: PixelSize
        if graphics == .kitty && shownWidth >= size.width {
            pixelSize = size  // the terminal scales; sending more pixels than the source has is waste
        } else {
            pixelSize = PixelSize(width: shownWidth, height: shownHeight)
        }
        return Layout(
            columns: (shownWidth + cell.width - 1) / cell.width, rows: (shownHeight + cell.height - 1) / cell.height,
            pixelSize: pixelSize)
    }

    /// The bytes that draw `bitmap` at most `columns` wide and `maxRows` tall.
    ///
    /// `imageID` names the kitty image: a later transmission with the same id replaces it (so
    /// programs should not share ids; a random one is a good choice), and
    /// ``kittyDeleteSequence(imageID:)`` frees it. The other protocols ignore it.
    public func render(
        _ bitmap: ImageBitmap, columns: Int, maxRows: Int? = nil, imageID: UInt32 = 1
    ) throws(WebImageError) -> TerminalRendering {
        let layout = try layout(for: bitmap.size, columns: columns, maxRows: maxRows)
        let pixels = TerminalPixelSampler.sample(bitmap, to: layout.pixelSize, background: background)
        var bytes = [UInt8]()
        switch graphics {
        case .halfBlocks:
            HalfBlockEncoder.encode(pixels, size: layout.pixelSize, into: &bytes)
        case .kitty:
            bytes.reserveCapacity(pixels.count * 4 / 3 + 1024)
            Self.reserveLines(layout.rows, into: &bytes)
            KittyEncoder.encode(
                pixels, size: layout.pixelSize, columns: layout.columns, rows: layout.rows, imageID: imageID,
                into: &bytes)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: layout.rows))
        case .sixel:
            Self.reserveLines(layout.rows, into: &bytes)
            bytes.append(contentsOf: [0x1B, UInt8(ascii: "7")])  // DECSC: where the image starts
            SixelEncoder.encode(pixels, size: layout.pixelSize, into: &bytes)
            bytes.append(contentsOf: [0x1B, UInt8(ascii: "8")])  // DECRC: wherever sixel left it
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: layout.rows))
        }
        return TerminalRendering(bytes: bytes, columns: layout.columns, rows: layout.rows)
    }

    /// The kitty command that deletes image `imageID` and frees its pixels in the terminal.
    public static func kittyDeleteSequence(imageID: UInt32) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(imageID),q=2\u{1B}\\".utf8)
    }

    /// Line feeds that make room for `rows` lines below the cursor (scrolling if the screen
    /// ends sooner), then a move back up: a graphic drawn next does not scroll while it draws.
    private static func reserveLines(_ rows: Int, into bytes: inout [UInt8]) {
        guard rows > 0 else { return }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "\n"), count: rows))
        bytes.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        bytes.appendDecimal(rows)
        bytes.append(UInt8(ascii: "A"))
    }

    private func scaled(_ value: Int, by numerator: Int, over denominator: Int) -> Int {
        max(
            1,
            Int(clamping: Double(value) * Double(numerator) / Double(denominator), rounding: .toNearestOrAwayFromZero))
    }
}

/// What ``TerminalImageRenderer/render(_:columns:maxRows:imageID:)`` produced.
public struct TerminalRendering: Sendable {
    /// The bytes to write to the terminal.
    public var bytes: [UInt8]
    /// Columns the image covers.
    public var columns: Int
    /// Lines the image covers; the cursor ends this many lines below where it started, in column 0.
    public var rows: Int
}

extension [UInt8] {
    /// Appends the decimal digits of a non-negative `value`, without going through `String`.
    mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
