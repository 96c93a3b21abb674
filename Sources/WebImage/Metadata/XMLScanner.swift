/// A tolerant pull scanner over the XML of an XMP packet: start tags with their attributes, end
/// tags and text, with the five predefined entities and character references decoded.
///
/// Comments, processing instructions and declarations (`<!DOCTYPE …>`) are skipped; a CDATA
/// section is text. Not a validating parser: it accepts what a tolerant reader can make sense
/// of and stops (returns nil) where markup is left unclosed. One pass, linear in the input.
struct XMLScanner {
    enum Token: Equatable {
        case start(name: String, attributes: [Attribute], selfClosing: Bool)
        case end(name: String)
        case text(String)
    }

    struct Attribute: Equatable {
        var name: String
        var value: String
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next token, or nil at the end of the input or at markup that is never closed.
    mutating func next() -> Token? {
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
                defer { index = end }
                return .text(XMLEntities.decode(bytes[index..<end]))
            }
            if starts(with: "<!--") {
                guard let end = find("-->", from: index + 4) else { return nil }
                index = end + 3
            } else if starts(with: "<![CDATA[") {
                guard let end = find("]]>", from: index + 9) else { return nil }
                defer { index = end + 3 }
                return .text(String(decoding: bytes[(index + 9)..<end], as: UTF8.self))
            } else if starts(with: "<?") {
                guard let end = find("?>", from: index + 2) else { return nil }
                index = end + 2
            } else if starts(with: "<!") || starts(with: "</") {
                guard let end = endOfTag(from: index + 2) else { return nil }
                let name = bytes[index + 1] == UInt8(ascii: "/") ? bytes[(index + 2)..<end] : nil
                index = end + 1
                if let name { return .end(name: String(decoding: name, as: UTF8.self).trimmingSpaces) }
            } else {
                return startTag()
            }
        }
        return nil
    }

    /// The start tag at `index` (just after its `<`, once read).
    private mutating func startTag() -> Token? {
        var nameEnd = index + 1
        while nameEnd < bytes.count, !Self.endsName(bytes[nameEnd]) { nameEnd += 1 }
        guard let end = endOfTag(from: nameEnd) else { return nil }
        let name = String(decoding: bytes[(index + 1)..<nameEnd], as: UTF8.self)
        let selfClosing = bytes[end - 1] == UInt8(ascii: "/")
        let attributes = Self.attributes(bytes[nameEnd..<(selfClosing ? end - 1 : end)])
        index = end + 1
        return .start(name: name, attributes: attributes, selfClosing: selfClosing)
    }

    /// `name="value"` (or single-quoted) pairs; reading stops at the first malformed one.
    private static func attributes(_ text: ArraySlice<UInt8>) -> [Attribute] {
        var attributes: [Attribute] = []
        var index = text.startIndex
        let end = text.endIndex
        func skipSpaces() { while index < end, isSpace(text[index]) { index += 1 } }
        while true {
            skipSpaces()
            let nameStart = index
            while index < end, text[index] != UInt8(ascii: "="), !isSpace(text[index]) { index += 1 }
            guard index > nameStart else { return attributes }
            let name = String(decoding: text[nameStart..<index], as: UTF8.self)
            skipSpaces()
            guard index < end, text[index] == UInt8(ascii: "=") else { return attributes }
            index += 1
            skipSpaces()
            guard index < end, text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'"),
                let close = text[(index + 1)...].firstIndex(of: text[index])
            else { return attributes }
            attributes.append(Attribute(name: name, value: XMLEntities.decode(text[(index + 1)..<close])))
            index = close + 1
        }
    }

    /// The `>` that ends the tag whose contents begin at `start`, quoted values skipped.
    private func endOfTag(from start: Int) -> Int? {
        var quote: UInt8?
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return position
            }
            position += 1
        }
        return nil
    }

    private func starts(with text: StaticString) -> Bool { matches(text, at: index) }

    private func matches(_ text: StaticString, at position: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position <= bytes.count - count else { return false }
        return text.withUTF8Buffer { bytes[position..<(position + count)].elementsEqual($0) }
    }

    /// The first occurrence of `text` at or after `start`.
    private func find(_ text: StaticString, from start: Int) -> Int? {
        let first = text.withUTF8Buffer { $0[0] }
        var position = start
        while position < bytes.count, let candidate = bytes[position...].firstIndex(of: first) {
            if matches(text, at: candidate) { return candidate }
            position = candidate + 1
        }
        return nil
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    private static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }
}

extension String {
    /// Without leading and trailing XML white space.
    fileprivate var trimmingSpaces: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !XMLScanner.isSpace($0) }),
            let last = bytes.lastIndex(where: { !XMLScanner.isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
