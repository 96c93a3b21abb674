import Dispatch
import Foundation
import WebImage
import WebImageDisplay

#if canImport(Glibc)
    import Glibc
#endif

/// What `webimage view` changes in the terminal while an animation plays, and putting it back.
///
/// ``start(onStop:)`` hides the cursor, switches a terminal on standard input to no echo and no
/// line editing (and no signal keys: Ctrl-C and Ctrl-Z arrive as keys), and calls `onStop` once
/// for the first key pressed or the first SIGINT, SIGTERM or SIGHUP. ``restore()`` puts the
/// terminal settings back, resets colours and shows the cursor; it runs once however often it is
/// called, and the caller calls it on every way out (a `defer`).
final class TerminalSession: @unchecked Sendable {
    // Every stored property below is read and written under `lock`.
    private let lock = NSLock()
    private var savedSettings: termios?
    private var sources: [any DispatchSourceProtocol] = []
    private var keySource: (any DispatchSourceRead)?
    private var ended = false
    private var stopped = false
    private var onStop: (@Sendable () -> Void)?
    private let queue = DispatchQueue(label: "webimage.view.terminal")
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    func start(onStop: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        self.onStop = onStop
        // Only the foreground job owns the keyboard; a background one changing the settings
        // would be stopped (SIGTTOU), so it plays without keys and ends by signal or loop count.
        if isatty(0) == 1 && tcgetpgrp(0) == getpgrp() {
            var settings = termios()
            if tcgetattr(0, &settings) == 0 {
                savedSettings = settings
                settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
                withUnsafeMutableBytes(of: &settings.c_cc) { cc in
                    cc[Int(VMIN)] = 1
                    cc[Int(VTIME)] = 0
                }
                _ = tcsetattr(0, TCSANOW, &settings)
                let keys = DispatchSource.makeReadSource(fileDescriptor: 0, queue: queue)
                keys.setEventHandler { [weak self] in self?.readKeys() }
                keys.resume()
                keySource = keys
            }
        }
        for number in Self.stopSignals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.stop() }
            source.resume()
            sources.append(source)
        }
        TerminalOutput.write(TerminalFramePresenter.begin)
    }

    /// Puts the terminal back: settings, colours, cursor. Safe to call more than once.
    func restore() {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return }
        ended = true
        keySource?.cancel()
        keySource = nil
        for source in sources { source.cancel() }
        sources.removeAll()
        if var savedSettings { _ = tcsetattr(0, TCSANOW, &savedSettings) }
        TerminalOutput.write(TerminalFramePresenter.end)
        for number in Self.stopSignals { signal(number, SIG_DFL) }
    }

    private func readKeys() {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        // End of input, or a late reply to the graphics query rather than a key: not a stop.
        if count > 0 && !Self.isTerminalReply(buffer[0..<count]) { stop() }
        if count == 0 { lock.withLock { keySource?.cancel() } }  // hung up: nothing more to read
    }

    private func stop() {
        let action: (@Sendable () -> Void)? = lock.withLock {
            guard !stopped else { return nil }
            stopped = true
            return onStop
        }
        action?()
    }

    /// A device attributes or kitty graphics reply (`ESC [ ?` or `ESC _ G`), which arrives on
    /// standard input like typing when a terminal answers the query late.
    static func isTerminalReply(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.starts(with: [0x1B, UInt8(ascii: "["), UInt8(ascii: "?")])
            || bytes.starts(with: [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")])
    }
}

/// A terminal window's size, from `ioctl(TIOCGWINSZ)`.
struct TerminalWindow {
    var columns: Int
    var rows: Int
    /// One cell's size in pixels, when the terminal reports its pixel size.
    var cellPixelSize: PixelSize?

    /// The size of the terminal on `descriptor`, or nil if it is not a terminal.
    static func size(of descriptor: Int32 = 1) -> TerminalWindow? {
        var size = winsize()
        guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return nil
        }
        var cell: PixelSize?
        if size.ws_xpixel > 0 && size.ws_ypixel > 0 && size.ws_row > 0 {
            cell = PixelSize(width: Int(size.ws_xpixel / size.ws_col), height: Int(size.ws_ypixel / size.ws_row))
            if cell?.isPositive != true { cell = nil }
        }
        return TerminalWindow(columns: Int(size.ws_col), rows: Int(size.ws_row), cellPixelSize: cell)
    }
}
