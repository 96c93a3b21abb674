import Foundation

/// A terminal screen of fixed size in cells that interprets the bytes the terminal renderers and
/// `webimage view` write, so tests check what a terminal would show rather than byte strings.
///
/// It understands printable UTF-8 (each scalar one cell), CR, LF (as a terminal's output
/// processing delivers it, `ONLCR`: start of the next line, scrolling at the bottom), SGR 0, 38;2,
/// 48;2, 39 and 49, cursor movements (CSI A B C D H), DECSC and DECRC (`ESC 7`, `ESC 8`), cursor
/// visibility (CSI ? 25 l/h), kitty graphics commands (APC `ESC _ G ... ESC \`, chunks joined and
/// the RGBA payload decoded) and sixel images (DCS `ESC P ... q ... ESC \`, decoded to pixels).
/// Anything else is kept in ``unknownSequences``, so a test can require that there is none.
struct VirtualTerminal {
    struct RGB: Hashable, CustomStringConvertible {
        var r: UInt8
        var g: UInt8
        var b: UInt8
        var description: String { "rgb(\(r),\(g),\(b))" }
    }

    struct Cell: Equatable {
        var character: Character = " "
        /// nil: the default colour.
        var foreground: RGB?
        var background: RGB?
    }

    struct Position: Equatable, CustomStringConvertible {
        var row: Int
        var column: Int
        var description: String { "(\(row), \(column))" }
    }

    /// A completed kitty transmission (all its chunks).
    struct KittyImage {
        var keys: [String: String]
        var chunkCount: Int
        var chunkPayloadSizes: [Int]
        var width: Int
        var height: Int
        /// The decoded payload (RGBA for `f=32`).
        var pixels: [UInt8]
        var position: Position
        var id: UInt32? { keys["i"].flatMap { UInt32($0) } }
    }

    /// A decoded sixel image.
    struct SixelImage {
        var introducer: String
        /// From the raster attributes.
        var width: Int
        var height: Int
        var definedColorCount: Int
        /// RGBA; alpha 0 where no pass set the pixel.
        var pixels: [UInt8]
        var position: Position

        func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            let i = (y * width + x) * 4
            return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
    }

    let columns: Int
    let rows: Int
    private(set) var cells: [[Cell]]
    private(set) var cursor = Position(row: 0, column: 0)
    private(set) var cursorVisible = true
    private(set) var foreground: RGB?
    private(set) var background: RGB?
    var kittyImages: [KittyImage] = []
    /// Ids of kitty images sent and not deleted.
    var liveKittyImageIDs: Set<UInt32> = []
    var sixelImages: [SixelImage] = []
    private(set) var scrolledLines = 0
    var unknownSequences: [String] = []
    private var saved = Position(row: 0, column: 0)
    var pendingKitty: (keys: [String: String], payload: [UInt8], sizes: [Int], position: Position)?
    private var pending: [UInt8] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
    }

    /// Whether colours are back to the defaults (after SGR 0, 39 and 49).
    var attributesAreReset: Bool { foreground == nil && background == nil }

    subscript(row: Int, column: Int) -> Cell { cells[row][column] }

    /// Row `row` as text, trailing blanks removed.
    func text(row: Int) -> String {
        var line = String(cells[row].map(\.character))
        while line.last == " " { line.removeLast() }
        return line
    }

    mutating func feed(_ text: String) { feed(Array(text.utf8)) }

    mutating func feed(_ bytes: [UInt8]) {
        pending += bytes
        var index = 0
        while index < pending.count {
            guard let consumed = step(at: index) else { break }  // incomplete: wait for more
            index = consumed
        }
        pending.removeFirst(index)
    }

    /// Interprets what starts at `index`; returns the index after it, or nil if it is incomplete.
    private mutating func step(at index: Int) -> Int? {
        let byte = pending[index]
        switch byte {
        case 0x1B:
            guard index + 1 < pending.count else { return nil }
            switch pending[index + 1] {
            case UInt8(ascii: "["): return controlSequence(from: index + 2)
            case UInt8(ascii: "_"), UInt8(ascii: "P"):
                guard let end = stringTerminator(from: index + 2) else { return nil }
                let body = Array(pending[(index + 2)..<end])
                if pending[index + 1] == UInt8(ascii: "_") { kittyCommand(body) } else { sixel(body) }
                return end + 2
            case UInt8(ascii: "7"):
                saved = cursor
                return index + 2
            case UInt8(ascii: "8"):
                cursor = saved
                return index + 2
            default:
                unknownSequences.append("ESC \(Character(UnicodeScalar(pending[index + 1])))")
                return index + 2
            }
        case UInt8(ascii: "\r"):
            cursor.column = 0
            return index + 1
        case UInt8(ascii: "\n"):
            cursor.column = 0
            lineFeed()
            return index + 1
        case 0..<0x20, 0x7F:
            unknownSequences.append("control \(byte)")
            return index + 1
        default:
            let length = byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            guard index + length <= pending.count else { return nil }
            let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
            put(text.first ?? "?")
            return index + length
        }
    }

    private mutating func lineFeed() {
        if cursor.row == rows - 1 {
            cells.removeFirst()
            cells.append(Array(repeating: Cell(), count: columns))
            scrolledLines += 1
        } else {
            cursor.row += 1
        }
    }

    private mutating func put(_ character: Character) {
        if cursor.column >= columns {  // deferred wrap, as xterm does
            cursor.column = 0
            lineFeed()
        }
        cells[cursor.row][cursor.column] = Cell(character: character, foreground: foreground, background: background)
        cursor.column += 1
    }

    private func stringTerminator(from start: Int) -> Int? {
        var i = start
        while i + 1 < pending.count {
            if pending[i] == 0x1B && pending[i + 1] == UInt8(ascii: "\\") { return i }
            i += 1
        }
        return nil
    }

    private mutating func controlSequence(from start: Int) -> Int? {
        var i = start
        while i < pending.count && !(0x40...0x7E).contains(pending[i]) { i += 1 }
        guard i < pending.count else { return nil }
        let parameterText = String(decoding: pending[start..<i], as: UTF8.self)
        let final = Character(UnicodeScalar(pending[i]))
        let isPrivate = parameterText.hasPrefix("?")
        let numbers = parameterText.drop(while: { $0 == "?" }).split(separator: ";", omittingEmptySubsequences: false)
            .map { Int($0) }
        let first = max(numbers.first.flatMap { $0 } ?? 1, 1)
        switch (isPrivate, final) {
        case (true, "l") where parameterText == "?25": cursorVisible = false
        case (true, "h") where parameterText == "?25": cursorVisible = true
        case (false, "m"): selectGraphicRendition(numbers.map { $0 ?? 0 })
        case (false, "A"): cursor.row = max(0, cursor.row - first)
        case (false, "B"): cursor.row = min(rows - 1, cursor.row + first)
        case (false, "C"): cursor.column = min(columns - 1, cursor.column + first)
        case (false, "D"): cursor.column = max(0, min(cursor.column, columns - 1) - first)
        case (false, "H"):
            let row = numbers.first.flatMap { $0 } ?? 1
            let column = numbers.count > 1 ? numbers[1] ?? 1 : 1
            cursor = Position(row: min(max(row, 1), rows) - 1, column: min(max(column, 1), columns) - 1)
        default: unknownSequences.append("CSI \(parameterText)\(final)")
        }
        return i + 1
    }

    private mutating func selectGraphicRendition(_ parameters: [Int]) {
        var i = 0
        while i < parameters.count {
            switch parameters[i] {
            case 0:
                foreground = nil
                background = nil
            case 39: foreground = nil
            case 49: background = nil
            case let code where (code == 38 || code == 48) && i + 4 < parameters.count && parameters[i + 1] == 2:
                let color = RGB(r: UInt8(parameters[i + 2]), g: UInt8(parameters[i + 3]), b: UInt8(parameters[i + 4]))
                if code == 38 { foreground = color } else { background = color }
                i += 4
            default: unknownSequences.append("SGR \(parameters[i])")
            }
            i += 1
        }
    }
}
