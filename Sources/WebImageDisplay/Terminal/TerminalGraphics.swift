import WebImage

/// How a terminal can show pixels: the three ways ``TerminalImageRenderer`` draws an image.
public enum TerminalGraphics: String, Sendable, CaseIterable {
    /// Text: each cell is an upper half block (`▀`) whose 24-bit foreground colour is the upper
    /// pixel and whose background colour is the lower one. Works in every truecolor terminal and
    /// in a file or pipe.
    case halfBlocks = "halfblocks"
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole): RGBA pixels in APC escapes.
    case kitty
    /// DEC sixel graphics (xterm with `-ti vt340`, foot, mlterm, WezTerm, contour): a palette of
    /// at most 256 colours in a DCS escape.
    case sixel

    /// The protocol the environment names, without asking the terminal anything.
    ///
    /// Kitty when `TERM` is `xterm-kitty` or `xterm-ghostty`, when `KITTY_WINDOW_ID` or
    /// `GHOSTTY_RESOURCES_DIR` is set, or when `TERM_PROGRAM` is `WezTerm` or `ghostty`; sixel when
    /// `TERM` names foot or mlterm; half blocks otherwise. Inside tmux or GNU screen (`TMUX` set,
    /// or `TERM` starting with `screen` or `tmux`) it is always half blocks: a multiplexer does
    /// not pass graphics escapes through to the terminal around it.
    public static func detect(environment: [String: String]) -> TerminalGraphics {
        named(by: environment) ?? .halfBlocks
    }

    /// ``detect(environment:)``, asking the terminal (``query(input:output:timeoutMilliseconds:)``)
    /// when the environment does not settle it and both descriptors are terminals.
    public static func detect(
        environment: [String: String], input: Int32, output: Int32, timeoutMilliseconds: Int = 100
    ) -> TerminalGraphics {
        named(by: environment)
            ?? query(input: input, output: output, timeoutMilliseconds: timeoutMilliseconds) ?? .halfBlocks
    }

    /// The protocol the environment settles, or nil when only asking the terminal can tell
    /// (an xterm-like `TERM` with nothing more specific around it).
    static func named(by environment: [String: String]) -> TerminalGraphics? {
        let term = environment["TERM"]?.lowercased() ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") {
            return .halfBlocks
        }
        if term == "xterm-kitty" || term == "xterm-ghostty" || environment["KITTY_WINDOW_ID"] != nil
            || environment["GHOSTTY_RESOURCES_DIR"] != nil
        {
            return .kitty
        }
        switch environment["TERM_PROGRAM"]?.lowercased() {
        case "wezterm", "ghostty": return .kitty
        default: break
        }
        if term.hasPrefix("foot") || term.hasPrefix("mlterm") { return .sixel }
        // The Linux console prints an APC query as text instead of ignoring it: never ask it.
        if term == "dumb" || term == "linux" || term.isEmpty { return .halfBlocks }
        return nil
    }

    /// The image id of the one-pixel image that ``querySequence`` asks the terminal to check.
    static let queryImageID = 31_337

    /// The bytes that ask a terminal what it can show: a kitty graphics query (`a=q`, a 1×1 RGB
    /// image that is checked, never stored) followed by a Primary Device Attributes request
    /// (`ESC [ c`). Every terminal answers the second; only kitty-protocol terminals answer the
    /// first, and they answer it first, so the device attributes reply marks the end.
    public static var querySequence: [UInt8] {
        Array("\u{1B}_Gi=\(queryImageID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c".utf8)
    }

    /// Reads a terminal's reply to ``querySequence``.
    ///
    /// Returns ``kitty`` when the reply holds `ESC _ G i=<query id>;OK ESC \`, else ``sixel`` when
    /// it holds a Primary Device Attributes reply (`ESC [ ? Ps ; ... c`) whose parameters include
    /// 4 (sixel graphics), else ``halfBlocks`` when a device attributes reply is there without
    /// 4, and nil when no complete device attributes reply has arrived yet (read more, or give
    /// up when the time is out). Other bytes around the replies (a key typed meanwhile) are
    /// ignored. A pure function of its input.
    public static func parse(queryReply reply: [UInt8]) -> TerminalGraphics? {
        let kittyOK = Array("\u{1B}_Gi=\(queryImageID);OK\u{1B}\\".utf8)
        let hasKitty = reply.firstRange(of: kittyOK) != nil
        guard let attributes = deviceAttributes(in: reply) else { return hasKitty ? .kitty : nil }
        if hasKitty { return .kitty }
        return attributes.contains(4) ? .sixel : .halfBlocks
    }

    /// The parameters of the first complete `ESC [ ? Ps ; ... ; Ps c` in `bytes`.
    static func deviceAttributes(in bytes: [UInt8]) -> [Int]? {
        let introducer: [UInt8] = [0x1B, 0x5B, 0x3F]  // ESC [ ?
        var searchStart = bytes.startIndex
        while let range = bytes[searchStart...].firstRange(of: introducer) {
            var parameters = [Int]()
            var current: Int?
            var index = range.upperBound
            scan: while index < bytes.endIndex {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    current = min((current ?? 0) * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                case UInt8(ascii: ";"):
                    parameters.append(current ?? 0)
                    current = nil
                case UInt8(ascii: "c"):
                    if let current { parameters.append(current) }
                    return parameters
                default:
                    break scan
                }
                index += 1
            }
            searchStart = range.upperBound
        }
        return nil
    }
}
