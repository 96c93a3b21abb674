/// One attribute of a start tag, by byte ranges of the document.
struct SVGAttribute {
    /// From the white space before the name to the closing quote: what removing it removes.
    let range: Range<Int>
    let name: Range<Int>
    /// Between the quotes, as written (references not yet replaced).
    let value: Range<Int>
}

/// A start tag (or an empty-element tag, `<x/>`), by byte ranges of the document.
struct SVGStartTag {
    let range: Range<Int>
    let name: Range<Int>
    let attributes: [SVGAttribute]
    let isEmpty: Bool
}

/// Reads an SVG document's markup in order, one construct at a time, without building a tree.
/// It checks what it needs to find every tag's end (quotes, comment, CDATA and declaration ends);
/// it does not check that the document is well-formed beyond that.
struct SVGMarkupScanner {
    enum Token {
        case text(Range<Int>)
        case startTag(SVGStartTag)
        case endTag(name: Range<Int>, range: Range<Int>)
        case comment(Range<Int>)
        /// The range of the data between `<![CDATA[` and `]]>`.
        case characterData(Range<Int>)
        /// The range between `<?` and `?>`.
        case processingInstruction(Range<Int>)
        case documentType(Range<Int>)
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The next construct, or nil at the end of the document.
    mutating func next() throws(WebImageError) -> Token? {
        let end = bytes.count
        guard position < end else { return nil }
        let start = position
        guard bytes[start] == UInt8(ascii: "<") else {
            var at = start
            while at < end, bytes[at] != UInt8(ascii: "<") { at += 1 }
            position = at
            return .text(start..<at)
        }
        if SVGMarkup.matches("<!--", in: bytes, at: start) {
            let close = try required(SVGMarkup.find("-->", in: bytes, from: start + 4, before: end), "a comment")
            position = close + 3
            return .comment(start..<position)
        }
        if SVGMarkup.matches("<![CDATA[", in: bytes, at: start) {
            let dataStart = start + 9
            let close = try required(SVGMarkup.find("]]>", in: bytes, from: dataStart, before: end), "a CDATA section")
            position = close + 3
            return .characterData(dataStart..<close)
        }
        if SVGMarkup.matches("<!DOCTYPE", in: bytes, at: start) {
            position = try required(
                SVGMarkup.doctypeEnd(in: bytes, from: start, before: end), "the document type declaration")
            return .documentType(start..<position)
        }
        if SVGMarkup.matches("<?", in: bytes, at: start) {
            let close = try required(
                SVGMarkup.find("?>", in: bytes, from: start + 2, before: end), "a processing instruction")
            position = close + 2
            return .processingInstruction(start + 2..<close)
        }
        if SVGMarkup.matches("</", in: bytes, at: start) {
            let nameEnd = SVGMarkup.nameEnd(in: bytes, from: start + 2, before: end)
            let close = try required(
                SVGMarkup.closingQuote(UInt8(ascii: ">"), in: bytes, from: nameEnd, before: end), "an end tag")
            position = close + 1
            return .endTag(name: start + 2..<nameEnd, range: start..<position)
        }
        return .startTag(try startTag(at: start))
    }

    private mutating func startTag(at start: Int) throws(WebImageError) -> SVGStartTag {
        let end = bytes.count
        let nameEnd = SVGMarkup.nameEnd(in: bytes, from: start + 1, before: end)
        guard nameEnd > start + 1 else { throw Self.malformed("a '<' that starts no tag at byte \(start)") }
        var attributes: [SVGAttribute] = []
        var at = nameEnd
        while true {
            let spaceStart = at
            while at < end, SVGMarkup.isSpace(bytes[at]) { at += 1 }
            guard at < end else { throw Self.malformed("a tag that does not end") }
            switch bytes[at] {
            case UInt8(ascii: ">"):
                position = at + 1
                return SVGStartTag(
                    range: start..<position, name: start + 1..<nameEnd, attributes: attributes, isEmpty: false)
            case UInt8(ascii: "/"):
                guard at + 1 < end, bytes[at + 1] == UInt8(ascii: ">") else {
                    throw Self.malformed("a '/' inside a tag at byte \(at)")
                }
                position = at + 2
                return SVGStartTag(
                    range: start..<position, name: start + 1..<nameEnd, attributes: attributes, isEmpty: true)
            default:
                guard at > spaceStart else {
                    throw Self.malformed("attributes without space between them at byte \(at)")
                }
                let name = at..<SVGMarkup.nameEnd(in: bytes, from: at, before: end)
                guard !name.isEmpty else { throw Self.malformed("an attribute without a name at byte \(at)") }
                at = name.upperBound
                while at < end, SVGMarkup.isSpace(bytes[at]) { at += 1 }
                guard at < end, bytes[at] == UInt8(ascii: "=") else {
                    throw Self.malformed("an attribute without a value at byte \(name.lowerBound)")
                }
                at += 1
                while at < end, SVGMarkup.isSpace(bytes[at]) { at += 1 }
                guard at < end, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                    throw Self.malformed("an attribute value without quotes at byte \(name.lowerBound)")
                }
                let close = try required(
                    SVGMarkup.closingQuote(bytes[at], in: bytes, from: at + 1, before: end), "an attribute value")
                attributes.append(SVGAttribute(range: spaceStart..<close + 1, name: name, value: at + 1..<close))
                at = close + 1
            }
        }
    }

    private func required(_ offset: Int?, _ what: String) throws(WebImageError) -> Int {
        guard let offset else { throw Self.malformed("\(what) that does not end") }
        return offset
    }

    static func malformed(_ what: String) -> WebImageError {
        .badImageData("the SVG is not well-formed: \(what)")
    }
}
