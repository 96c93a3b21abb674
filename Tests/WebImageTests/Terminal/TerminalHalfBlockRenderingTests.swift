import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Terminal half-block rendering")
struct TerminalHalfBlockRenderingTests {
    typealias RGB = VirtualTerminal.RGB
    let red = TerminalTestImages.red
    let blue = TerminalTestImages.blue

    @Test("a two-colour image becomes upper half blocks with the upper pixel in front and the lower behind")
    func twoColourCells() throws {
        // Even pixel rows red, odd rows blue, except the right half where they swap.
        let bitmap = TerminalTestImages.bitmap(width: 4, height: 4) { x, y in
            (y % 2 == 0) == (x < 2) ? TerminalTestImages.red : TerminalTestImages.blue
        }
        let rendering = try TerminalImageRenderer().render(bitmap, columns: 4)
        #expect(rendering.columns == 4)
        #expect(rendering.rows == 2)
        var terminal = VirtualTerminal(columns: 10, rows: 5)
        terminal.feed(rendering.bytes)
        #expect(terminal.unknownSequences.isEmpty)
        for row in 0..<2 {
            #expect(terminal.text(row: row) == "▀▀▀▀")
            for column in 0..<4 {
                let cell = terminal[row, column]
                #expect(cell.foreground == RGB(column < 2 ? red : blue), "row \(row) column \(column)")
                #expect(cell.background == RGB(column < 2 ? blue : red), "row \(row) column \(column)")
            }
            #expect(terminal[row, 4] == VirtualTerminal.Cell())
        }
        #expect(terminal.text(row: 2) == "")
        #expect(terminal.cursor == VirtualTerminal.Position(row: 2, column: 0))
        #expect(terminal.attributesAreReset)
    }

    @Test("the width in columns is respected and the height follows the aspect ratio")
    func widthAndAspect() throws {
        let wide = TerminalTestImages.bitmap(width: 100, height: 50) { _, _ in TerminalTestImages.red }
        let rendering = try TerminalImageRenderer().render(wide, columns: 20)
        // 20 columns are 20 pixels wide, so 10 pixels tall: 5 lines of two pixels each.
        #expect(rendering.columns == 20)
        #expect(rendering.rows == 5)
        var terminal = VirtualTerminal(columns: 30, rows: 8)
        terminal.feed(rendering.bytes)
        for row in 0..<5 { #expect(terminal.text(row: row) == String(repeating: "▀", count: 20)) }
        #expect(terminal.text(row: 5) == "")

        // A square is half as many lines as columns: a cell is about twice as tall as wide.
        let square = TerminalTestImages.bitmap(width: 30, height: 30) { _, _ in TerminalTestImages.blue }
        let squareRendering = try TerminalImageRenderer().render(square, columns: 30)
        #expect(squareRendering.columns == 30)
        #expect(squareRendering.rows == 15)
    }

    @Test("an image is never drawn wider than its own pixels")
    func neverUpscaled() throws {
        let small = TerminalTestImages.bitmap(width: 10, height: 6) { _, _ in TerminalTestImages.red }
        let rendering = try TerminalImageRenderer().render(small, columns: 80)
        #expect(rendering.columns == 10)
        #expect(rendering.rows == 3)
    }

    @Test("a line limit narrows a tall image and keeps its aspect ratio")
    func lineLimit() throws {
        let tall = TerminalTestImages.bitmap(width: 100, height: 100) { _, _ in TerminalTestImages.red }
        let rendering = try TerminalImageRenderer().render(tall, columns: 100, maxRows: 10)
        #expect(rendering.rows == 10)
        #expect(rendering.columns == 20)
    }

    @Test("resampling averages the pixels under each cell")
    func boxFilter() throws {
        // Columns alternate black and white: two columns into one give mid grey.
        let stripes = TerminalTestImages.bitmap(width: 8, height: 4) { x, _ in x % 2 == 0 ? .black : .white }
        let rendering = try TerminalImageRenderer().render(stripes, columns: 4)
        var terminal = VirtualTerminal(columns: 8, rows: 4)
        terminal.feed(rendering.bytes)
        #expect(rendering.columns == 4 && rendering.rows == 1)
        for column in 0..<4 {
            let foreground = try #require(terminal[0, column].foreground)
            #expect((127...128).contains(foreground.r) && foreground.r == foreground.g && foreground.g == foreground.b)
        }
    }

    @Test("transparent pixels show the terminal's background, or blend over a chosen colour")
    func transparency() throws {
        // Column 0: transparent over red. Column 1: red over transparent. Column 2: both transparent.
        let bitmap = TerminalTestImages.bitmap(width: 3, height: 2) { x, y in
            switch (x, y) {
            case (0, 1), (1, 0): TerminalTestImages.red
            default: .clear
            }
        }
        var terminal = VirtualTerminal(columns: 5, rows: 3)
        terminal.feed(try TerminalImageRenderer().render(bitmap, columns: 3).bytes)
        #expect(terminal[0, 0] == VirtualTerminal.Cell(character: "▄", foreground: RGB(red), background: nil))
        #expect(terminal[0, 1] == VirtualTerminal.Cell(character: "▀", foreground: RGB(red), background: nil))
        #expect(terminal[0, 2].character == " " && terminal[0, 2].background == nil)
        #expect(terminal.attributesAreReset)

        // Half-transparent white over black is mid grey, and every cell is drawn.
        let halfWhite = TerminalTestImages.bitmap(width: 1, height: 2) { _, _ in RGBA8(r: 255, g: 255, b: 255, a: 128) }
        var blended = VirtualTerminal(columns: 3, rows: 2)
        blended.feed(try TerminalImageRenderer(background: .black).render(halfWhite, columns: 1).bytes)
        #expect(
            blended[0, 0]
                == VirtualTerminal.Cell(
                    character: "▀", foreground: RGB(r: 128, g: 128, b: 128),
                    background: RGB(r: 128, g: 128, b: 128)))
    }

    @Test("an odd pixel height leaves the last line's lower half to the terminal")
    func oddHeight() throws {
        let bitmap = TerminalTestImages.bitmap(width: 2, height: 3) { _, _ in TerminalTestImages.blue }
        var terminal = VirtualTerminal(columns: 4, rows: 4)
        let rendering = try TerminalImageRenderer().render(bitmap, columns: 2)
        terminal.feed(rendering.bytes)
        #expect(rendering.rows == 2)
        #expect(terminal[1, 0] == VirtualTerminal.Cell(character: "▀", foreground: RGB(blue), background: nil))
    }

    @Test("zero columns, zero lines or an empty cell size are typed errors")
    func badSizes() throws {
        let bitmap = TerminalTestImages.bitmap(width: 2, height: 2) { _, _ in .white }
        #expect(throws: WebImageError.self) { try TerminalImageRenderer().render(bitmap, columns: 0) }
        #expect(throws: WebImageError.self) { try TerminalImageRenderer().render(bitmap, columns: 4, maxRows: 0) }
        let noCell = TerminalImageRenderer(graphics: .sixel, cellPixelSize: .zero)
        #expect(throws: WebImageError.self) { try noCell.render(bitmap, columns: 4) }
    }
}
