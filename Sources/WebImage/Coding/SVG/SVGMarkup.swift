/// Byte-level pieces of XML syntax that the SVG sniffer, scanner and sanitiser share. Every
/// function takes a bound (`before`) and never reads past it or past the buffer.
enum SVGMarkup {
    /// XML white space: space, tab, line feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether `byte` may continue an XML name (ASCII letters, digits, `-`, `_`, `.`, `:`, and
    /// every byte of a multi-byte UTF-8 character).
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }

    /// Whether the ASCII text `pattern` is at `offset`.
    static func matches(_ pattern: String, in bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        var at = offset
        for expected in pattern.utf8 {
            guard at < bytes.count, bytes[at] == expected else { return false }
            at += 1
        }
        return true
    }

    /// The first offset at or after `start` where `pattern` begins and ends before `end`.
    static func find(_ pattern: String, in bytes: UnsafeRawBufferPointer, from start: Int, before end: Int) -> Int? {
        guard let first = pattern.utf8.first else { return nil }
        let length = pattern.utf8.count
        var at = start
        while at + length <= end {
            if bytes[at] == first, matches(pattern, in: bytes, at: at) { return at }
            at += 1
        }
        return nil
    }

    /// The offset just past a name that starts at `start` (`start` itself when there is none).
    static func nameEnd(in bytes: UnsafeRawBufferPointer, from start: Int, before end: Int) -> Int {
        var at = start
        while at < end, isNameByte(bytes[at]) { at += 1 }
        return at
    }

    /// The offset just past the `>` that closes the document type declaration starting at
    /// `start`: quoted literals and a bracketed internal subset (with its own comments, quoted
    /// literals and declarations) are skipped whole.
    static func doctypeEnd(in bytes: UnsafeRawBufferPointer, from start: Int, before end: Int) -> Int? {
        var at = start + "<!DOCTYPE".utf8.count
        var inSubset = false
        while at < end {
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let close = closingQuote(byte, in: bytes, from: at + 1, before: end) else { return nil }
                at = close + 1
            case UInt8(ascii: "<") where inSubset && matches("<!--", in: bytes, at: at):
                guard let close = find("-->", in: bytes, from: at + 4, before: end) else { return nil }
                at = close + 3
            case UInt8(ascii: "["):
                inSubset = true
                at += 1
            case UInt8(ascii: "]"):
                inSubset = false
                at += 1
            case UInt8(ascii: ">") where !inSubset:
                return at + 1
            default:
                at += 1
            }
        }
        return nil
    }

    /// The offset of the next `quote` byte at or after `start`.
    static func closingQuote(_ quote: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, before end: Int)
        -> Int?
    {
        var at = start
        while at < end {
            if bytes[at] == quote { return at }
            at += 1
        }
        return nil
    }

    /// Whether an element named `svg` (with or without a namespace prefix) starts at `offset`.
    static func startsSVGRoot(_ bytes: UnsafeRawBufferPointer, at offset: Int, before end: Int) -> Bool {
        guard offset < end, bytes[offset] == UInt8(ascii: "<") else { return false }
        let nameStart = offset + 1
        let nameEnd = nameEnd(in: bytes, from: nameStart, before: end)
        guard nameEnd < end, nameEnd > nameStart else { return false }
        let after = bytes[nameEnd]
        guard isSpace(after) || after == UInt8(ascii: ">") || after == UInt8(ascii: "/") else { return false }
        return localName(bytes, nameStart..<nameEnd) == "svg"
    }

    /// The part of the name in `range` after its namespace prefix, as text.
    static func localName(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
        var start = range.lowerBound
        for at in range where bytes[at] == UInt8(ascii: ":") { start = at + 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<range.upperBound]), as: UTF8.self)
    }
}
