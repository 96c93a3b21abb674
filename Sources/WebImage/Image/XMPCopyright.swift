import Foundation

/// An XMP packet reduced to its copyright properties: `dc:rights`, `dc:creator`,
/// `dc:contributor`, `dc:publisher` and every `xmpRights:` and `cc:` property, as elements or as
/// attributes of an `rdf:Description`, written into a fresh packet.
///
/// A scan of the bytes rather than an XML parse: it finds properties by the prefixes XMP writers
/// use for these namespaces, and copies each kept element whole. One pass, whatever the input:
/// an element that is never closed ends the scan.
enum XMPCopyright {
    private static let dublinCoreNames: Set<String> = ["dc:rights", "dc:creator", "dc:contributor", "dc:publisher"]
    private static let keptPrefixes = ["xmpRights:", "cc:"]
    /// The namespaces the kept properties are in, declared when the source does not declare them.
    private static let standardNamespaces = [
        ("dc", "http://purl.org/dc/elements/1.1/"), ("xmpRights", "http://ns.adobe.com/xap/1.0/rights/"),
        ("cc", "http://creativecommons.org/ns#"),
    ]

    /// Whether a property called `name` is kept.
    static func isKept(_ name: String) -> Bool {
        dublinCoreNames.contains(name) || keptPrefixes.contains { name.hasPrefix($0) && name.count > $0.count }
    }

    /// The fresh packet, or nil when `packet` has no copyright property.
    static func reduced(_ packet: Data) -> Data? {
        var scan = Scan(bytes: [UInt8](packet))
        scan.run()
        guard !scan.elements.isEmpty || !scan.attributes.isEmpty else { return nil }
        let kept = Array(scan.elements.joined(separator: [0x0A])) + Array(scan.attributes.joined(separator: [0x20]))
        var namespaces = standardNamespaces.map { prefix, uri in (prefix, scan.declarations[prefix] ?? Array(uri.utf8))
        }
        for (prefix, uri) in scan.declarations.sorted(by: { $0.key < $1.key })
        where !["x", "rdf", "xml"].contains(prefix) && !standardNamespaces.contains(where: { $0.0 == prefix })
            && uses(prefix, in: kept)
        {
            namespaces.append((prefix, uri))
        }
        var out = Array(#"<?xpacket begin="\#u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>"#.utf8)
        out += Array(
            """

            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
            """.utf8)
        for (prefix, uri) in namespaces { out += Array("\n    xmlns:\(prefix)=\"".utf8) + uri + [0x22] }
        for attribute in scan.attributes { out += Array("\n    ".utf8) + attribute }
        out += Array(">\n".utf8)
        for element in scan.elements { out += Array("   ".utf8) + element + [0x0A] }
        out += Array(
            """
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """.utf8)
        return Data(out)
    }

    /// Whether `bytes` holds `needle` at `index`.
    private static func occurs(_ needle: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index <= bytes.count - needle.count else { return false }
        return bytes[index..<(index + needle.count)].elementsEqual(needle)
    }

    /// Whether `prefix:` starts a name in `bytes` (after `<`, `/` or white space).
    private static func uses(_ prefix: String, in bytes: [UInt8]) -> Bool {
        let needle = Array((prefix + ":").utf8)
        guard bytes.count > needle.count else { return false }
        for start in 1...(bytes.count - needle.count)
        where [0x3C, 0x2F, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[start - 1]) && occurs(needle, in: bytes, at: start) {
            return true
        }
        return false
    }

    /// One pass over a packet, collecting the kept elements (whole), kept attributes
    /// (`name="value"`) and every namespace declaration (prefix to URI, the first one wins).
    private struct Scan {
        let bytes: [UInt8]
        var elements: [[UInt8]] = []
        var attributes: [[UInt8]] = []
        var attributeNames: Set<String> = []
        var declarations: [String: [UInt8]] = [:]

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func run() {
            var index = 0
            while let open = find([0x3C], from: index) {
                let next = open + 1
                guard next < bytes.count else { return }
                if starts(with: "<!--", at: open) {
                    guard let end = find(Array("-->".utf8), from: open + 4) else { return }
                    index = end + 3
                    continue
                }
                if starts(with: "<![CDATA[", at: open) {
                    guard let end = find(Array("]]>".utf8), from: open + 9) else { return }
                    index = end + 3
                    continue
                }
                if [0x2F, 0x21, 0x3F].contains(bytes[next]) {  // a closing tag, a declaration, a PI
                    index = next
                    continue
                }
                var nameEnd = next
                while nameEnd < bytes.count, !Self.endsName(bytes[nameEnd]) { nameEnd += 1 }
                guard let tagEnd = endOfTag(from: nameEnd) else { return }
                let name = String(decoding: bytes[next..<nameEnd], as: UTF8.self)
                guard XMPCopyright.isKept(name) else {
                    readAttributes(nameEnd..<tagEnd)
                    index = tagEnd + 1
                    continue
                }
                // A kept element is copied whole, with the declarations and attributes it holds.
                if bytes[tagEnd - 1] == 0x2F {
                    elements.append(Array(bytes[open...tagEnd]))
                    index = tagEnd + 1
                    continue
                }
                guard let close = closingTag(name, from: tagEnd + 1) else { return }
                elements.append(Array(bytes[open..<close]))
                index = close
            }
        }

        /// The index just past `</name>` (white space allowed before `>`).
        private func closingTag(_ name: String, from start: Int) -> Int? {
            let needle = Array("</\(name)".utf8)
            var index = start
            while let found = find(needle, from: index) {
                var end = found + needle.count
                while end < bytes.count, Self.isSpace(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] == 0x3E { return end + 1 }
                index = found + 1
            }
            return nil
        }

        /// The `>` that ends a start tag whose attributes begin at `start` (quotes skipped).
        private func endOfTag(from start: Int) -> Int? {
            var quote: UInt8?
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == 0x22 || byte == 0x27 {
                    quote = byte
                } else if byte == 0x3E {
                    return index
                }
                index += 1
            }
            return nil
        }

        /// Reads `name="value"` pairs of a start tag: namespace declarations and kept properties.
        private mutating func readAttributes(_ range: Range<Int>) {
            var index = range.lowerBound
            while index < range.upperBound {
                while index < range.upperBound, Self.isSpace(bytes[index]) || bytes[index] == 0x2F { index += 1 }
                let nameStart = index
                while index < range.upperBound, bytes[index] != 0x3D, !Self.isSpace(bytes[index]) { index += 1 }
                let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
                while index < range.upperBound, Self.isSpace(bytes[index]) { index += 1 }
                guard index < range.upperBound, bytes[index] == 0x3D else { return }
                index += 1
                while index < range.upperBound, Self.isSpace(bytes[index]) { index += 1 }
                guard index < range.upperBound, bytes[index] == 0x22 || bytes[index] == 0x27 else { return }
                let quote = bytes[index]
                let valueStart = index + 1
                guard let valueEnd = bytes[valueStart..<range.upperBound].firstIndex(of: quote) else { return }
                index = valueEnd + 1
                if name.hasPrefix("xmlns:") {
                    let prefix = String(name.dropFirst(6))
                    if declarations[prefix] == nil { declarations[prefix] = Array(bytes[valueStart..<valueEnd]) }
                } else if XMPCopyright.isKept(name), !attributeNames.contains(name) {
                    attributeNames.insert(name)
                    attributes.append(Array(bytes[nameStart..<index]))
                }
            }
        }

        private func starts(with text: String, at index: Int) -> Bool {
            XMPCopyright.occurs(Array(text.utf8), in: bytes, at: index)
        }

        private func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard let first = needle.first, start >= 0 else { return nil }
            var index = start
            while index <= bytes.count - needle.count {
                guard let candidate = bytes[index...].firstIndex(of: first), candidate <= bytes.count - needle.count
                else { return nil }
                if XMPCopyright.occurs(needle, in: bytes, at: candidate) { return candidate }
                index = candidate + 1
            }
            return nil
        }

        private static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }
        private static func endsName(_ byte: UInt8) -> Bool { isSpace(byte) || byte == 0x3E || byte == 0x2F }
    }
}
