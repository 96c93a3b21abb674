import Foundation

/// Removes from an SVG document what a browser would run when it shows the file itself: for an
/// image service that answers SVG sources as they are (imgproxy's `IMGPROXY_SANITIZE_SVG`).
///
/// Removed, by local name whatever the namespace prefix or letter case:
/// - elements that run or embed code, with their content: `script`, `handler`, `iframe`, `frame`,
///   `frameset`, `object`, `embed`, `applet`, `form`, `base` and `meta`;
/// - animation elements (`set`, `animate`, …) that would set an event handler or a link;
/// - every attribute whose name starts with `on` (the event handlers);
/// - links a browser would follow into code: a `use` may only point into the document itself
///   (`#id`); an `image` to `http:`, `https:`, `data:` or a relative address; anything else to
///   `http:`, `https:` or a relative address (so no `javascript:` and no `data:text/html`);
/// - `xml-stylesheet` instructions other than `text/css` (an XSLT sheet can write scripts).
///
/// Everything else is kept byte for byte, so a document without any of these comes back
/// unchanged. Documents this pass could misread are refused with
/// ``WebImageError/Code/badImageData``: entities or attribute defaults that could bring markup
/// back (the entity rules the decoder shares), encodings other than UTF-8, ASCII and the
/// single-byte Latin ones, and markup that does not end properly.
public enum SVGSanitizer {
    /// `data` with scripts, event handlers and unsafe links removed.
    public static func sanitized(_ data: Data) throws(WebImageError) -> Data {
        try data.withUnsafeBytesTyped { bytes throws(WebImageError) in
            // What is not read as ASCII here could hide a script from this pass, not from a browser.
            try SVGPreflight.checkEncoding(bytes)
            var pass = SanitizingPass(bytes)
            try pass.run()
            return pass.removed.isEmpty ? data : pass.output()
        }
    }

    /// Elements removed with everything inside them.
    static let removedElements: Set<String> = [
        "script", "handler", "iframe", "frame", "frameset", "object", "embed", "applet", "form", "base", "meta",
    ]

    /// Elements that can change another element's attribute over time (`attributeName`).
    static let animationElements: Set<String> = ["set", "animate", "animatecolor", "animatetransform", "animatemotion"]

    /// Whether a link to `value` (as a browser reads it) is safe on an element named `element`.
    static func allowsLink(_ value: [UInt8], on element: String) -> Bool {
        // Browsers drop tabs and line breaks anywhere in an address and C0 controls and spaces
        // at its ends: "java\tscript:" is "javascript:".
        let kept = value.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard let start = kept.firstIndex(where: { $0 > 0x20 }), let end = kept.lastIndex(where: { $0 > 0x20 }) else {
            return true
        }
        let link = Array(kept[start...end])
        if link[0] == UInt8(ascii: "#") { return true }
        if element == "use" { return false }
        guard let scheme = scheme(of: link) else { return true }
        return scheme == "http" || scheme == "https" || (element == "image" && scheme == "data")
    }

    /// The lowercased scheme of an address (`[A-Za-z][A-Za-z0-9+.-]*:`), or nil for a relative one.
    static func scheme(of link: [UInt8]) -> String? {
        guard let first = link.first, isLetter(first) else { return nil }
        for (index, byte) in link.enumerated().dropFirst() {
            if byte == UInt8(ascii: ":") { return String(decoding: link[..<index], as: UTF8.self).lowercased() }
            guard
                isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            else { return nil }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}

/// One sanitising walk over a document: collects the byte ranges to remove.
private struct SanitizingPass {
    private var scanner: SVGMarkupScanner
    private var entities = SVGEntities()
    private var budget: Int
    private(set) var removed: [Range<Int>] = []

    init(_ bytes: UnsafeRawBufferPointer) {
        scanner = SVGMarkupScanner(bytes)
        budget = max(bytes.count, 1 << 20)
    }

    private var bytes: UnsafeRawBufferPointer { scanner.bytes }

    mutating func run() throws(WebImageError) {
        while let token = try scanner.next() {
            switch token {
            case .documentType(let range):
                entities = try SVGEntities(declaration: range, in: bytes)
            case .processingInstruction(let range):
                if !keepsInstruction(range) { removed.append(range.lowerBound - 2..<range.upperBound + 2) }
            case .startTag(let tag):
                try visit(tag)
            default:
                break
            }
        }
    }

    private mutating func visit(_ tag: SVGStartTag) throws(WebImageError) {
        let name = SVGMarkup.localName(bytes, tag.name).lowercased()
        var removesElement = SVGSanitizer.removedElements.contains(name)
        if !removesElement { removesElement = try setsUnsafeAttribute(tag, name: name) }
        if removesElement {
            removed.append(tag.range.lowerBound..<(try elementEnd(tag)))
            return
        }
        for attribute in tag.attributes {
            let attributeName = SVGMarkup.localName(bytes, attribute.name).lowercased()
            if attributeName.hasPrefix("on") {
                removed.append(attribute.range)
            } else if attributeName == "href" {
                let link = try entities.expanded(attribute.value, in: bytes, budget: &budget)
                if !SVGSanitizer.allowsLink(link, on: name) { removed.append(attribute.range) }
            }
        }
    }

    /// Whether `tag` animates an event handler or a link.
    private func setsUnsafeAttribute(_ tag: SVGStartTag, name: String) throws(WebImageError) -> Bool {
        guard SVGSanitizer.animationElements.contains(name) else { return false }
        var budget = self.budget
        for attribute in tag.attributes where SVGMarkup.localName(bytes, attribute.name) == "attributeName" {
            let target = try entities.expanded(attribute.value, in: bytes, budget: &budget)
            let local = String(decoding: target, as: UTF8.self).split(separator: ":").last.map(String.init) ?? ""
            let trimmed = local.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if trimmed.hasPrefix("on") || trimmed == "href" { return true }
        }
        return false
    }

    /// The offset just past the end tag that closes `tag` (its own end for an empty tag).
    private mutating func elementEnd(_ tag: SVGStartTag) throws(WebImageError) -> Int {
        if tag.isEmpty { return tag.range.upperBound }
        var depth = 1
        while let token = try scanner.next() {
            switch token {
            case .startTag(let inner) where !inner.isEmpty:
                depth += 1
            case .endTag(_, let range):
                depth -= 1
                if depth == 0 { return range.upperBound }
            default:
                break
            }
        }
        throw SVGMarkupScanner.malformed("an element that is never closed")
    }

    /// Whether a processing instruction stays: all but `xml-stylesheet` ones that are not CSS.
    private func keepsInstruction(_ range: Range<Int>) -> Bool {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard text.hasPrefix("xml-stylesheet") else { return true }
        let compact = text.lowercased().filter { !$0.isWhitespace }
        return compact.contains("type=\"text/css\"") || compact.contains("type='text/css'")
    }

    /// The document without the removed ranges (which never overlap: each starts after the last).
    func output() -> Data {
        var data = Data(capacity: bytes.count)
        var copied = 0
        for range in removed where range.lowerBound >= copied {
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
            copied = range.upperBound
        }
        data.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied...]))
        return data
    }
}
