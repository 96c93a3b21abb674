/// The general entities an SVG document declares in its internal subset, and the text of an
/// attribute value or character data with its references replaced.
///
/// Only plain declarations are accepted: `<!ENTITY name "text">` whose text holds no markup and
/// no references (the namespace names illustration programs declare). Anything that could make
/// markup or attributes appear only once entities are expanded is refused: parameter entities,
/// external entities, entity values with `<`, `&` or `%`, and `<!ATTLIST>` (whose default values
/// some XML readers add to elements). With those gone, every tag is written out in the document
/// and an entity reference only stands for plain text, which ``expanded(_:in:budget:)`` replaces.
struct SVGEntities {
    private(set) var values: [String: [UInt8]] = [:]

    init() {}

    /// The declarations in the document type declaration at `range` (`<!DOCTYPE … >`).
    init(declaration range: Range<Int>, in bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        guard
            let open = SVGMarkup.closingQuote(
                UInt8(ascii: "["), in: bytes, from: range.lowerBound, before: range.upperBound)
        else { return }
        var at = open + 1
        let end = range.upperBound
        while at < end {
            let byte = bytes[at]
            if SVGMarkup.isSpace(byte) {
                at += 1
            } else if byte == UInt8(ascii: "]") {
                return
            } else if SVGMarkup.matches("<!--", in: bytes, at: at) {
                guard let close = SVGMarkup.find("-->", in: bytes, from: at + 4, before: end) else { break }
                at = close + 3
            } else if SVGMarkup.matches("<!ENTITY", in: bytes, at: at) {
                at = try declareEntity(from: at + "<!ENTITY".utf8.count, in: bytes, before: end)
            } else {
                let nameEnd = SVGMarkup.nameEnd(in: bytes, from: at + 2, before: end)
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<nameEnd]), as: UTF8.self)
                throw Self.refused("its document type has a declaration that is not read here (\(name.prefix(20)))")
            }
        }
        throw SVGMarkupScanner.malformed("the document type's internal subset does not end")
    }

    /// Reads `name "value">` after `<!ENTITY`; returns the offset past its `>`.
    private mutating func declareEntity(from start: Int, in bytes: UnsafeRawBufferPointer, before end: Int)
        throws(WebImageError) -> Int
    {
        var at = start
        while at < end, SVGMarkup.isSpace(bytes[at]) { at += 1 }
        guard at < end, bytes[at] != UInt8(ascii: "%") else { throw Self.refused("it declares a parameter entity") }
        let nameEnd = SVGMarkup.nameEnd(in: bytes, from: at, before: end)
        guard nameEnd > at else { throw SVGMarkupScanner.malformed("an entity declaration without a name") }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<nameEnd]), as: UTF8.self)
        at = nameEnd
        while at < end, SVGMarkup.isSpace(bytes[at]) { at += 1 }
        guard at < end, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
            throw Self.refused("it declares an external entity (\(name.prefix(40)))")
        }
        guard let close = SVGMarkup.closingQuote(bytes[at], in: bytes, from: at + 1, before: end) else {
            throw SVGMarkupScanner.malformed("an entity value that does not end")
        }
        let value = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[at + 1..<close]))
        if value.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "%") }) {
            throw Self.refused("its entity '\(name.prefix(40))' holds markup or references")
        }
        // The first declaration of a name is the one that counts.
        if values[name] == nil { values[name] = value }
        at = close + 1
        while at < end, SVGMarkup.isSpace(bytes[at]) { at += 1 }
        guard at < end, bytes[at] == UInt8(ascii: ">") else {
            throw SVGMarkupScanner.malformed("an entity declaration that does not end after its value")
        }
        return at + 1
    }

    /// The text at `range` with character references, the five predefined entities and the
    /// declared ones replaced; a reference to an undeclared entity (or a malformed one) is kept
    /// as written. `budget` is the number of bytes the expansions may still add to the
    /// document; past it this throws, so that a document cannot grow without bound.
    func expanded(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer, budget: inout Int) throws(WebImageError)
        -> [UInt8]
    {
        try rewritten(range, in: bytes, budget: &budget) { name in replacement(for: name) }
    }

    /// The text at `range` with only the references to declared entities replaced, for markup
    /// that must still read the same once the declarations are gone: the entity's text, with
    /// `quote` (the attribute value's delimiter, nil in character data) written as a reference.
    /// Every other reference is kept as written. `budget` bounds the bytes added, as in
    /// ``expanded(_:in:budget:)``.
    func inlined(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer, quote: UInt8?, budget: inout Int)
        throws(WebImageError) -> [UInt8]
    {
        try rewritten(range, in: bytes, budget: &budget) { name -> [UInt8]? in
            guard let value = values[name] else { return nil }
            guard let quote, value.contains(quote) else { return value }
            let escaped = Array((quote == UInt8(ascii: "\"") ? "&quot;" : "&apos;").utf8)
            return value.flatMap { $0 == quote ? escaped : [$0] }
        }
    }

    /// The text at `range` with each reference `&name;` that `replacement` knows replaced.
    private func rewritten(
        _ range: Range<Int>, in bytes: UnsafeRawBufferPointer, budget: inout Int,
        replacement: (String) -> [UInt8]?
    ) throws(WebImageError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var at = range.lowerBound
        while at < range.upperBound {
            let byte = bytes[at]
            guard byte == UInt8(ascii: "&"),
                let semicolon = SVGMarkup.closingQuote(
                    UInt8(ascii: ";"), in: bytes, from: at + 1, before: range.upperBound),
                semicolon - at <= 64
            else {
                out.append(byte)
                at += 1
                continue
            }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at + 1..<semicolon]), as: UTF8.self)
            if let replacement = replacement(name) {
                budget -= replacement.count
                guard budget >= 0 else { throw Self.refused("its entities expand past the size limit") }
                out += replacement
            } else {
                out += UnsafeRawBufferPointer(rebasing: bytes[at...semicolon])
            }
            at = semicolon + 1
        }
        return out
    }

    /// What `&name;` stands for, or nil when this cannot tell.
    private func replacement(for name: String) -> [UInt8]? {
        switch name {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, value > 0, let scalar = Unicode.Scalar(value) else { return nil }
            return Array(String(Character(scalar)).utf8)
        }
        return values[name]
    }

    static func refused(_ why: String) -> WebImageError {
        .badImageData("the SVG is refused: \(why)")
    }
}
