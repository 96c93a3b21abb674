import WebImage

/// Draws a sequence of frames (an animation) at one place in a terminal, each over the last.
///
/// ``begin`` hides the cursor. Each ``frame(_:)`` moves the cursor back to the top left of the
/// previous frame (`ESC [ n A` and `\r`, n being the lines that frame used) and draws the new
/// one there, so the screen does not scroll after the first frame. ``end`` resets colours and
/// shows the cursor again, below the last frame. With kitty graphics, frames alternate between
/// two image ids and each frame deletes the one before it: the terminal holds at most two
/// images, and never shows a gap between frames.
///
/// The presenter only produces bytes; writing them, and writing ``end`` on every way out
/// (a key, a signal, an error), is the caller's part.
public struct TerminalFramePresenter: Sendable {
    /// Draws each frame.
    public let renderer: TerminalImageRenderer
    /// The widest a frame may be, in columns.
    public let columns: Int
    /// The tallest a frame may be, in lines: keep it below the screen's height, or a frame that
    /// scrolls the screen cannot be drawn over.
    public let maxRows: Int?
    /// The first of the two kitty image ids the frames use (the other is one more).
    public let firstImageID: UInt32
    private var drawnRows = 0
    private var drawnImageID: UInt32?

    /// A presenter for frames at most `columns` wide and `maxRows` tall; `firstImageID` should
    /// differ between programs showing images in one terminal (kitty replaces an image whose id
    /// is sent again), so the default is random.
    public init(
        renderer: TerminalImageRenderer, columns: Int, maxRows: Int? = nil,
        firstImageID: UInt32 = UInt32.random(in: 1...0x7FFF_FFFE)
    ) {
        self.renderer = renderer
        self.columns = columns
        self.maxRows = maxRows
        self.firstImageID = firstImageID
    }

    /// Hides the cursor (`ESC [ ? 25 l`).
    public static let begin: [UInt8] = Array("\u{1B}[?25l".utf8)
    /// Resets colours and attributes and shows the cursor (`ESC [ 0 m ESC [ ? 25 h`).
    public static let end: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h".utf8)

    /// Lines the last frame used: the cursor is this many lines below the frames' top.
    public var rowsDrawn: Int { drawnRows }

    /// The bytes that draw `bitmap` over the previous frame (or, for the first frame, at the cursor).
    public mutating func frame(_ bitmap: ImageBitmap) throws(WebImageError) -> [UInt8] {
        var bytes = [UInt8]()
        if drawnRows > 0 {
            bytes.append(contentsOf: [UInt8(ascii: "\r"), 0x1B, UInt8(ascii: "[")])
            bytes.appendDecimal(drawnRows)
            bytes.append(UInt8(ascii: "A"))
        }
        let imageID = drawnImageID == firstImageID ? firstImageID + 1 : firstImageID
        let rendering = try renderer.render(bitmap, columns: columns, maxRows: maxRows, imageID: imageID)
        bytes += rendering.bytes
        if renderer.graphics == .kitty {
            if let drawnImageID { bytes += TerminalImageRenderer.kittyDeleteSequence(imageID: drawnImageID) }
            drawnImageID = imageID
        }
        drawnRows = rendering.rows
        return bytes
    }
}
