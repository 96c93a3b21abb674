import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Terminal animation redrawn in place")
struct TerminalAnimationRedrawTests {
    typealias Position = VirtualTerminal.Position
    let colors = [TerminalTestImages.red, TerminalTestImages.blue, RGBA8(r: 0, g: 200, b: 0)]

    func frames(width: Int = 8, height: Int = 6) -> [ImageBitmap] {
        colors.map { color in TerminalTestImages.bitmap(width: width, height: height) { _, _ in color } }
    }

    @Test("each frame starts where the first did, the screen does not scroll, and the end restores the terminal")
    func halfBlocksInPlace() throws {
        var terminal = VirtualTerminal(columns: 40, rows: 10)
        terminal.feed("$ webimage view animation.gif\n")
        var presenter = TerminalFramePresenter(renderer: TerminalImageRenderer(), columns: 8, maxRows: 9)
        terminal.feed(TerminalFramePresenter.begin)
        #expect(!terminal.cursorVisible)
        for (index, frame) in frames().enumerated() {
            terminal.feed(try presenter.frame(frame))
            #expect(presenter.rowsDrawn == 3)
            #expect(terminal.cursor == Position(row: 4, column: 0), "frame \(index)")
            #expect(terminal.scrolledLines == 0)
            #expect(terminal.text(row: 0) == "$ webimage view animation.gif")
            for row in 1...3 {
                #expect(terminal.text(row: row) == "▀▀▀▀▀▀▀▀")
                #expect(terminal[row, 0].foreground == VirtualTerminal.RGB(colors[index]), "frame \(index)")
                #expect(terminal[row, 7].background == VirtualTerminal.RGB(colors[index]), "frame \(index)")
            }
            #expect(terminal.text(row: 4) == "")
        }
        terminal.feed(TerminalFramePresenter.end)
        #expect(terminal.cursorVisible)
        #expect(terminal.attributesAreReset)
        #expect(terminal.cursor == Position(row: 4, column: 0))
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test("at the bottom of the screen the first frame scrolls to make room and the rest do not")
    func bottomOfTheScreen() throws {
        var terminal = VirtualTerminal(columns: 20, rows: 6)
        terminal.feed("1\n2\n3\n4\n5\n$ view")
        var presenter = TerminalFramePresenter(renderer: TerminalImageRenderer(), columns: 8, maxRows: 5)
        terminal.feed("\n")
        for frame in frames() {
            terminal.feed(try presenter.frame(frame))
            #expect(terminal.cursor == Position(row: 5, column: 0))
            #expect(terminal.scrolledLines == 4)
            #expect(terminal.text(row: 1) == "$ view")
            #expect(terminal.text(row: 2) == "▀▀▀▀▀▀▀▀")
        }
    }

    @Test("kitty frames take turns between two ids, each deleting the last, all at one place")
    func kittyInPlace() throws {
        var terminal = VirtualTerminal(columns: 40, rows: 12)
        terminal.feed("$ view\n")
        let renderer = TerminalImageRenderer(graphics: .kitty, cellPixelSize: PixelSize(width: 4, height: 8))
        var presenter = TerminalFramePresenter(renderer: renderer, columns: 40, maxRows: 11, firstImageID: 100)
        for (index, frame) in (frames() + frames()).enumerated() {
            terminal.feed(try presenter.frame(frame))
            let image = try #require(terminal.kittyImages.last)
            #expect(image.position == Position(row: 1, column: 0))
            #expect(image.id == UInt32(100 + index % 2))
            #expect(terminal.liveKittyImageIDs == [UInt32(100 + index % 2)])
            #expect(terminal.cursor == Position(row: 2, column: 0))  // 6 pixels in cells 8 tall: one line
        }
        #expect(terminal.scrolledLines == 0)
        #expect(terminal.unknownSequences.isEmpty)
    }

    @Test("sixel frames are drawn at one place")
    func sixelInPlace() throws {
        var terminal = VirtualTerminal(columns: 40, rows: 12)
        terminal.feed("$ view\n")
        let renderer = TerminalImageRenderer(graphics: .sixel, cellPixelSize: PixelSize(width: 2, height: 4))
        var presenter = TerminalFramePresenter(renderer: renderer, columns: 40, maxRows: 11)
        for (index, frame) in frames().enumerated() {
            terminal.feed(try presenter.frame(frame))
            let image = try #require(terminal.sixelImages.last)
            #expect(image.position == Position(row: 1, column: 0))
            let pixel = image.pixel(x: 3, y: 3)
            #expect(isClose(RGBA8(r: pixel.r, g: pixel.g, b: pixel.b), colors[index], tolerance: 2))
            #expect(terminal.cursor == Position(row: 3, column: 0))  // 6 pixels in cells 4 tall: two lines
        }
        #expect(terminal.scrolledLines == 0)
    }
}
