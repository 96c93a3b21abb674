/// Tells SVG text from other bytes by its start, as an XML reader would meet it: an optional
/// UTF-8 byte order mark and white space, then any number of processing instructions (`<?xml …?>`,
/// `<?xml-stylesheet …?>`), comments and one document type declaration (with or without an
/// internal subset), then the root element `<svg` (or `<prefix:svg`).
///
/// Only the first ``window`` bytes are read, so that a long text that is not SVG costs little.
/// UTF-16 and other encodings that are not ASCII-compatible are not recognised.
enum SVGSniffing {
    /// How far the root element may start: room for licence comments and the entity
    /// declarations illustration programs write.
    static let window = 32 * 1024

    /// Whether `bytes` start like an SVG document.
    static func isSVG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        rootElementOffset(bytes) != nil
    }

    /// Where the root `<svg` element starts, or nil when the bytes do not start like SVG.
    static func rootElementOffset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let end = min(bytes.count, window)
        var at = 0
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
        var sawDoctype = false
        while at < end {
            let byte = bytes[at]
            if SVGMarkup.isSpace(byte) {
                at += 1
                continue
            }
            guard byte == UInt8(ascii: "<"), at + 1 < end else { return nil }
            switch bytes[at + 1] {
            case UInt8(ascii: "?"):
                guard let close = SVGMarkup.find("?>", in: bytes, from: at + 2, before: end) else { return nil }
                at = close + 2
            case UInt8(ascii: "!"):
                if SVGMarkup.matches("<!--", in: bytes, at: at) {
                    guard let close = SVGMarkup.find("-->", in: bytes, from: at + 4, before: end) else { return nil }
                    at = close + 3
                } else if !sawDoctype, SVGMarkup.matches("<!DOCTYPE", in: bytes, at: at) {
                    guard let close = SVGMarkup.doctypeEnd(in: bytes, from: at, before: end) else { return nil }
                    sawDoctype = true
                    at = close
                } else {
                    return nil
                }
            default:
                return SVGMarkup.startsSVGRoot(bytes, at: at, before: end) ? at : nil
            }
        }
        return nil
    }
}
