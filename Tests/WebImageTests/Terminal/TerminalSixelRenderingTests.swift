import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Terminal sixel rendering")
struct TerminalSixelRenderingTests {
    let renderer = TerminalImageRenderer(graphics: .sixel, cellPixelSize: PixelSize(width: 10, height: 20))

    @Test("the raster attributes give the pixel size and the cursor ends below the lines it covers")
    func rasterSize() throws {
        let bitmap = TerminalTestImages.bitmap(width: 20, height: 13) { _, _ in TerminalTestImages.red }
        let rendering = try renderer.render(bitmap, columns: 80)
        var terminal = VirtualTerminal(columns: 80, rows: 24)
        terminal.feed(rendering.bytes)
        #expect(terminal.unknownSequences.isEmpty)
        let image = try #require(terminal.sixelImages.only)
        #expect(image.introducer == "0;1;0")
        #expect(image.width == 20 && image.height == 13)
        #expect(rendering.columns == 2 && rendering.rows == 1)
        #expect(image.position == VirtualTerminal.Position(row: 0, column: 0))
        #expect(terminal.cursor == VirtualTerminal.Position(row: 1, column: 0))
    }

    @Test("an image of few colours keeps them exactly, up to the registers' percent steps")
    func fewColoursRoundTrip() throws {
        let bitmap = TerminalTestImages.bitmap(width: 20, height: 13) { x, y in
            (x + y) % 3 == 0 ? TerminalTestImages.red : TerminalTestImages.blue
        }
        var terminal = VirtualTerminal(columns: 80, rows: 24)
        terminal.feed(try renderer.render(bitmap, columns: 80).bytes)
        let image = try #require(terminal.sixelImages.only)
        #expect(image.definedColorCount == 2)
        for y in 0..<13 {
            for x in 0..<20 {
                let p = image.pixel(x: x, y: y)
                #expect(isClose(RGBA8(r: p.r, g: p.g, b: p.b, a: p.a), bitmap[x, y], tolerance: 2), "\(x),\(y)")
            }
        }
    }

    @Test("a many-colour image uses at most 256 registers and comes back within the quantisation error")
    func paletteLimit() throws {
        let bitmap = ImageBitmap.noise(width: 60, height: 40)
        var terminal = VirtualTerminal(columns: 80, rows: 24)
        terminal.feed(try renderer.render(bitmap, columns: 80).bytes)
        let image = try #require(terminal.sixelImages.only)
        #expect(image.width == 60 && image.height == 40)
        #expect(image.definedColorCount > 100 && image.definedColorCount <= 256)
        var worst = 0
        for y in 0..<40 {
            for x in 0..<60 {
                let p = image.pixel(x: x, y: y)
                let q = bitmap[x, y]
                #expect(p.a == 255)
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
            }
        }
        // Half a step of the 6-level channels (51 / 2) plus the percent rounding.
        #expect(worst <= 28)
    }

    @Test("transparent pixels are left unset")
    func transparency() throws {
        let bitmap = TerminalTestImages.bitmap(width: 10, height: 8) { x, _ in
            x < 5 ? .clear : TerminalTestImages.blue
        }
        var terminal = VirtualTerminal(columns: 80, rows: 24)
        terminal.feed(try renderer.render(bitmap, columns: 80).bytes)
        let image = try #require(terminal.sixelImages.only)
        for y in 0..<8 {
            #expect(image.pixel(x: 0, y: y).a == 0 && image.pixel(x: 4, y: y).a == 0)
            #expect(image.pixel(x: 5, y: y).a == 255 && image.pixel(x: 9, y: y).a == 255)
        }
    }

    @Test("runs of four or more columns are run-length coded")
    func runLength() throws {
        let bitmap = TerminalTestImages.bitmap(width: 30, height: 6) { _, _ in TerminalTestImages.red }
        let text = String(decoding: try renderer.render(bitmap, columns: 80).bytes, as: UTF8.self)
        #expect(text.contains("#0!30~"))
    }
}
