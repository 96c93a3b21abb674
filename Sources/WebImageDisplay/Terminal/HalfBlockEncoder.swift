import WebImage

/// Truecolor half-block text: two pixel rows per line, one pixel column per cell.
///
/// A cell whose two pixels both show is `▀` in the upper pixel's colour (`ESC [ 38;2;r;g;b m`)
/// over the lower one's (`ESC [ 48;2;r;g;b m`). A pixel less than half opaque is left to the
/// terminal's default background (`ESC [ 49 m`): the cell becomes `▄` in the lower colour when
/// only the upper pixel is hidden, and a blank when both are. Colours are sent only when they
/// change, and every line ends with `ESC [ 0 m` before its line feed, so a line's background
/// never bleeds into the next one when the terminal scrolls.
enum HalfBlockEncoder {
    static let upperHalf: [UInt8] = Array("▀".utf8)
    static let lowerHalf: [UInt8] = Array("▄".utf8)

    static func encode(_ pixels: [UInt8], size: PixelSize, into bytes: inout [UInt8]) {
        let rows = (size.height + 1) / 2
        bytes.reserveCapacity(bytes.count + rows * (size.width * 24 + 8))
        pixels.withUnsafeBufferPointer { pixels in
            for line in 0..<rows {
                var foreground: UInt32? = nil  // nil: the terminal's default
                var background: UInt32? = nil
                let upperRow = line * 2
                let lowerRow = upperRow + 1
                for x in 0..<size.width {
                    let upper = color(pixels, x: x, y: upperRow, size: size)
                    let lower = lowerRow < size.height ? color(pixels, x: x, y: lowerRow, size: size) : nil
                    let glyph: [UInt8]
                    let wantedForeground: UInt32?
                    let wantedBackground: UInt32?
                    switch (upper, lower) {
                    case (let upper?, let lower):
                        (glyph, wantedForeground, wantedBackground) = (upperHalf, upper, lower)
                    case (nil, let lower?):
                        (glyph, wantedForeground, wantedBackground) = (lowerHalf, lower, nil)
                    case (nil, nil):
                        // A blank shows only the background; keep whatever foreground is set.
                        (glyph, wantedForeground, wantedBackground) = ([UInt8(ascii: " ")], foreground, nil)
                    }
                    if wantedForeground != foreground || wantedBackground != background {
                        appendColors(
                            foreground: wantedForeground == foreground ? nil : wantedForeground,
                            background: wantedBackground == background ? .unchanged : .color(wantedBackground),
                            into: &bytes)
                        foreground = wantedForeground
                        background = wantedBackground
                    }
                    bytes.append(contentsOf: glyph)
                }
                bytes.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m"), 0x0A])
            }
        }
    }

    /// The pixel at (`x`, `y`) as `0xRRGGBB`, or nil when it is less than half opaque.
    @inline(__always)
    private static func color(_ pixels: UnsafeBufferPointer<UInt8>, x: Int, y: Int, size: PixelSize) -> UInt32? {
        let i = (y * size.width + x) * 4
        guard pixels[i + 3] >= 128 else { return nil }
        return UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2])
    }

    private enum BackgroundChange {
        case unchanged
        case color(UInt32?)
    }

    /// One SGR sequence setting a foreground colour (when not nil) and a background change.
    private static func appendColors(foreground: UInt32?, background: BackgroundChange, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        var first = true
        if let foreground {
            appendRGB(prefix: "38;2;", foreground, into: &bytes)
            first = false
        }
        if case .color(let color) = background {
            if !first { bytes.append(UInt8(ascii: ";")) }
            if let color {
                appendRGB(prefix: "48;2;", color, into: &bytes)
            } else {
                bytes.append(contentsOf: [UInt8(ascii: "4"), UInt8(ascii: "9")])
            }
        }
        bytes.append(UInt8(ascii: "m"))
    }

    private static func appendRGB(prefix: StaticString, _ color: UInt32, into bytes: inout [UInt8]) {
        prefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.appendDecimal(Int(color >> 16))
        bytes.append(UInt8(ascii: ";"))
        bytes.appendDecimal(Int(color >> 8 & 0xFF))
        bytes.append(UInt8(ascii: ";"))
        bytes.appendDecimal(Int(color & 0xFF))
    }
}
