import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

/// `webimage view` with standard output on a pipe (no terminal): it writes one still image and
/// exits. Playback on a real terminal is `scripts/view-smoke`'s part (tmux).
@Suite("webimage view", .serialized)
struct ViewCommandTests {
    static func fixture(_ path: String) -> String { Fixtures.directory.appendingPathComponent(path).path }

    func screen(_ output: String, columns: Int = 100, rows: Int = 60) -> VirtualTerminal {
        var terminal = VirtualTerminal(columns: columns, rows: rows)
        terminal.feed(output)
        return terminal
    }

    @Test("a still image is written once as half blocks with the image's own colours")
    func stillAsHalfBlocks() async throws {
        let path = "png/rgb8.png"
        let result = try await CommandRunner.runOffPool(["view", Self.fixture(path)])
        try #require(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        let image = try ImageCodersManager.shared.decode(Fixtures.data(path), options: ImageDecodeOptions())
        let terminal = screen(result.standardOutput)
        #expect(terminal.unknownSequences.isEmpty)
        #expect(terminal.kittyImages.isEmpty && terminal.sixelImages.isEmpty)
        #expect(terminal.cursorVisible)  // a still never hides the cursor
        // No wider than the image, one column per pixel: every pixel is a cell half.
        let rows = (image.height + 1) / 2
        #expect(terminal.cursor == VirtualTerminal.Position(row: rows, column: 0))
        for row in 0..<rows {
            #expect(terminal.text(row: row).count == image.width)
            for column in 0..<image.width {
                #expect(terminal[row, column].foreground == VirtualTerminal.RGB(image.bitmap[column, row * 2]))
            }
        }
        #expect(terminal.attributesAreReset)
    }

    @Test("--width sets the columns, and the lines follow the aspect ratio")
    func width() async throws {
        let result = try await CommandRunner.runOffPool(["view", Self.fixture("gif/pillow_noise.gif"), "--width", "12"])
        try #require(result.status == 0, "\(result.standardError)")
        let terminal = screen(result.standardOutput)
        // 48×40 pixels into 12 columns: 10 pixels tall, 5 lines.
        #expect(terminal.cursor == VirtualTerminal.Position(row: 5, column: 0))
        for row in 0..<5 { #expect(terminal.text(row: row).count == 12) }
        #expect(terminal.text(row: 5) == "")
    }

    @Test("an animation on a pipe, or with --no-animation, is its first frame only")
    func firstFrameOfAnAnimation() async throws {
        let path = Self.fixture("gif/disposal_none.gif")
        let image = try ImageCodersManager.shared.decode(
            Fixtures.data("gif/disposal_none.gif"), options: ImageDecodeOptions())
        let expected = try TerminalImageRenderer().render(image.bitmap, columns: 80)
        for arguments in [["view", path], ["view", path, "--no-animation"], ["view", path, "--once"]] {
            let result = try await CommandRunner.runOffPool(arguments)
            try #require(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(Array(result.standardOutput.utf8) == expected.bytes, "\(arguments)")
        }
    }

    @Test("--protocol kitty and --protocol sixel write graphics that decode back to the image")
    func forcedProtocols() async throws {
        let path = "png/rgba8.png"
        let image = try ImageCodersManager.shared.decode(Fixtures.data(path), options: ImageDecodeOptions())
        let kitty = try await CommandRunner.runOffPool(["view", Self.fixture(path), "--protocol", "kitty"])
        try #require(kitty.status == 0, "\(kitty.standardError)")
        let kittyImage = try #require(screen(kitty.standardOutput).kittyImages.only)
        #expect(kittyImage.width == image.width && kittyImage.height == image.height)
        #expect(kittyImage.pixels == image.bitmap.pixels)

        let sixel = try await CommandRunner.runOffPool(["view", Self.fixture(path), "--protocol", "sixel"])
        try #require(sixel.status == 0, "\(sixel.standardError)")
        let sixelTerminal = screen(sixel.standardOutput)
        #expect(sixelTerminal.unknownSequences.isEmpty)
        let sixelImage = try #require(sixelTerminal.sixelImages.only)
        #expect(sixelImage.width >= image.width && sixelImage.definedColorCount <= 256)
    }

    @Test(
        "bad input is one error line and a non-zero exit",
        arguments: [
            (["view", "/nonexistent/picture.png"], "no such file"),
            (["view", Self.fixture("png/invalid/bad_ihdr_crc.bin")], "bad image data"),
            (["view", Self.fixture("png/rgb8.png"), "--width", "0"], "--width"),
            (["view", Self.fixture("png/rgb8.png"), "--protocol", "ascii"], "ascii"),
        ])
    func badInput(arguments: [String], message: String) async throws {
        let result = try await CommandRunner.runOffPool(arguments)
        #expect(result.status != 0)
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(result.standardError.contains(message))
    }
}
