import Foundation
import WebImage
import WebImageDisplay

extension ViewCommand {
    /// Plays through `player`, each frame drawn over the last, until the loops run out (one with
    /// `--once`), a key is pressed or a signal arrives. The terminal is restored on every way out.
    func play(_ player: AnimatedImagePlayer, renderer: TerminalImageRenderer, columns: Int, maxRows: Int?)
        async throws
    {
        let session = TerminalSession()
        session.start { player.stop() }
        defer {
            player.stop()
            session.restore()
        }
        var presenter = TerminalFramePresenter(renderer: renderer, columns: columns, maxRows: maxRows)
        let changes = player.frameChanges()
        player.play()
        for await change in changes {
            guard TerminalOutput.write(try presenter.frame(change.bitmap)) else { break }
        }
    }
}
