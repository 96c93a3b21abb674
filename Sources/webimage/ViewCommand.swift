import ArgumentParser
import Foundation
import WebImage
import WebImageDisplay

#if canImport(Glibc)
    import Glibc
#endif

/// `webimage view <file|url> [--width COLUMNS] [--once] [--no-animation] [--protocol ...]`: shows
/// an image in the terminal, and plays an animation in place until a key or Ctrl-C.
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Show an image in the terminal; play an animation until a key is pressed.",
        discussion: """
            Draws with truecolor half-block characters, or with the kitty graphics protocol or sixels when \
            the terminal says it supports them (TERM, TERM_PROGRAM, KITTY_WINDOW_ID, else a 100 ms query). \
            An animation plays at its own timing, as many times as its loop count says, until a key or \
            Ctrl-C; the terminal is restored however it ends. When standard output is not a terminal, the \
            first frame is written once as half blocks (unless --protocol says otherwise).
            """)

    @Argument(help: "An image file, or a file:, data: or http(s): URL.")
    var input: String

    @Option(
        help: ArgumentHelp(
            "The widest the image may be, in columns (default: the terminal's width, else COLUMNS, else 80; never wider than the image).",
            valueName: "COLUMNS"))
    var width: Int?

    @Flag(help: "Play an animation once, then exit.")
    var once = false

    @Flag(help: "Show only the first frame of an animation.")
    var noAnimation = false

    @Option(name: .customLong("protocol"), help: "Draw with this protocol instead of the detected one.")
    var graphics: GraphicsArgument?

    func validate() throws {
        if let width, width < 1 { throw ValidationError("--width must be at least 1 column, not \(width)") }
    }

    func run() async throws {
        let data = try await InputReader.read(input)
        let window = TerminalWindow.size(of: 1)
        var options = ImageDecodeOptions()
        // Only a terminal plays an animation; the player decodes its frames as they are due.
        options.firstFrameOnly = noAnimation || window == nil
        options.lazyAnimatedFrames = true
        let image = try ImageCodersManager.shared.decode(data, options: options)

        let environment = ProcessInfo.processInfo.environment
        let columnsVariable = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let columns = width ?? window?.columns ?? columnsVariable ?? 80
        // On a terminal, keep the image on the screen (an animation that scrolled could not be
        // drawn over); in a pipe there is no screen.
        let maxRows = window.map { max(1, $0.rows - 1) }
        let chosen: TerminalGraphics
        if let graphics {
            chosen = graphics.value
        } else if window != nil {
            chosen = TerminalGraphics.detect(environment: environment, input: 0, output: 1)
        } else {
            chosen = .halfBlocks
        }
        var renderer = TerminalImageRenderer(graphics: chosen)
        if let cell = window?.cellPixelSize { renderer.cellPixelSize = cell }

        var playback = AnimatedImagePlayer.Configuration()
        if once { playback.loopCount = 1 }
        if window != nil, !noAnimation, let player = AnimatedImagePlayer(image: image, configuration: playback) {
            try await play(player, renderer: renderer, columns: columns, maxRows: maxRows)
        } else {
            // A kitty image id of its own, so that it does not replace one shown before.
            let rendering = try renderer.render(
                image.bitmap, columns: columns, maxRows: maxRows, imageID: UInt32.random(in: 1...0x7FFF_FFFE))
            TerminalOutput.write(rendering.bytes)
        }
    }
}

/// `--protocol halfblocks|kitty|sixel`.
struct GraphicsArgument: ExpressibleByArgument {
    let value: TerminalGraphics

    init?(argument: String) {
        guard let value = TerminalGraphics(rawValue: argument.lowercased()) else { return nil }
        self.value = value
    }

    static var allValueStrings: [String] { TerminalGraphics.allCases.map(\.rawValue) }
}
