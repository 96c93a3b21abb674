import Foundation
import Testing
import WebImage  // not @testable: the articles' snippets must work with the public API alone
import WebImageDisplay

// The code of Sources/WebImage/WebImage.docc/TerminalDisplay.md, kept compiling and working.
// Article and test are kept in sync by hand: change one, change the other. The bytes go to a
// virtual terminal instead of standard output, and detection reads a fixed environment (the
// test's own standard input and output may be a terminal, which must not be asked).
@Suite("DocC snippets: Showing images in a terminal")
struct TerminalDisplaySnippetTests {
    @Test("An image drawn with the detected protocol")
    func renderSnippet() throws {
        let data = try Fixtures.data("png/rgb8.png")
        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
        let graphics = TerminalGraphics.detect(environment: ["TERM": "xterm-256color"])
        let rendering = try TerminalImageRenderer(graphics: graphics).render(image.bitmap, columns: 80)

        var terminal = VirtualTerminal(columns: 80, rows: 24)
        terminal.feed(rendering.bytes)
        #expect(rendering.columns == 11 && rendering.rows == 4)
        #expect(terminal.text(row: 0) == String(repeating: "▀", count: 11))
    }
}

extension TerminalDisplaySnippetTests {
    @Test("An animation played in place through the player")
    func playbackSnippet() async throws {
        let image = try ImageCodersManager.shared.decode(
            Fixtures.data("apng/palette.png"), options: ImageDecodeOptions())  // 3 frames of 50 ms, 1 loop
        let renderer = TerminalImageRenderer()
        let screenRows = 24
        var terminal = VirtualTerminal(columns: 80, rows: screenRows)

        guard let player = AnimatedImagePlayer(image: image) else { return }  // nil for a still image
        var presenter = TerminalFramePresenter(renderer: renderer, columns: 80, maxRows: screenRows - 1)
        terminal.feed(TerminalFramePresenter.begin)
        defer { terminal.feed(TerminalFramePresenter.end) }
        let changes = player.frameChanges()
        player.play()
        var frames = 0
        for await change in changes {  // ends after the last loop, or on player.stop()
            terminal.feed(try presenter.frame(change.bitmap))
            frames += 1
            #expect(terminal.cursor == VirtualTerminal.Position(row: 8, column: 0))  // 16 pixels: 8 lines
            #expect(!terminal.cursorVisible)
        }
        // Real time, and the stream keeps only the newest change: a starved reader may see only
        // the last frame, never none.
        #expect(frames >= 1)
        #expect(terminal.scrolledLines == 0)
    }
}
