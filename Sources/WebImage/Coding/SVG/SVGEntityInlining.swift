#if SVG
    import Foundation

    /// Writes out the entities a document declares before librsvg reads it.
    ///
    /// librsvg 2.54 reads a document's entity declarations through libxml2 and never frees
    /// them, so every document that declares one would leak its entities' text, once per read,
    /// for as long as the process runs. ``SVGEntities`` only accepts plain-text entities, so the
    /// same document can be written without them: the document type declaration is left out
    /// and each reference to a declared entity is replaced by its text (in an attribute value,
    /// with the value's quote written as a reference). What a reader sees is unchanged; the
    /// predefined entities and character references stay as written.
    enum SVGEntityInlining {
        /// The document with its entities written out, or nil when it declares none (it is read
        /// as it is). The document has passed ``SVGPreflight``, whose rules and size budget this
        /// applies again.
        static func inlined(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) -> Data? {
            guard SVGMarkup.find("<!ENTITY", in: bytes, from: 0, before: bytes.count) != nil else { return nil }
            var scanner = SVGMarkupScanner(bytes)
            var entities = SVGEntities()
            var budget = max(bytes.count, 1 << 20)
            var out = Data(capacity: bytes.count)
            var copied = 0
            func replace(_ range: Range<Int>, with text: [UInt8]) {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
                out.append(contentsOf: text)
                copied = range.upperBound
            }
            while let token = try scanner.next() {
                switch token {
                case .documentType(let range):
                    entities = try SVGEntities(declaration: range, in: bytes)
                    replace(range, with: [])
                case .startTag(let tag):
                    for attribute in tag.attributes where contains(UInt8(ascii: "&"), in: attribute.value, of: bytes) {
                        let quote = bytes[attribute.value.lowerBound - 1]
                        replace(
                            attribute.value,
                            with: try entities.inlined(attribute.value, in: bytes, quote: quote, budget: &budget))
                    }
                case .text(let range) where contains(UInt8(ascii: "&"), in: range, of: bytes):
                    replace(range, with: try entities.inlined(range, in: bytes, quote: nil, budget: &budget))
                default:
                    break
                }
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[copied...]))
            return out
        }

        private static func contains(_ byte: UInt8, in range: Range<Int>, of bytes: UnsafeRawBufferPointer) -> Bool {
            UnsafeRawBufferPointer(rebasing: bytes[range]).contains(byte)
        }
    }
#endif
