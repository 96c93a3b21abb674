import Foundation

/// Checks an SVG document before librsvg reads it, for what this package does not leave to
/// librsvg:
///
/// - An `feConvolveMatrix` `kernelMatrix` of 400 numbers or more makes librsvg 2.54 panic
///   (unless its `order` multiplies to exactly 400), which aborts the whole process; such a
///   document is refused.
/// - `data:` addresses must hold an image or a font. Every one is decoded and checked in turn
///   (an embedded SVG is a document librsvg reads too), up to ``maxDepth`` documents deep.
/// - A `<use>` that leads back to an element it is in, or `<use>` references that multiply past
///   ``SVGUseGraph/maxInstances`` elements, are refused (``SVGUseGraph``).
/// - The entity rules of ``SVGEntities`` apply, so that every tag and attribute is written out
///   in the document, and encodings an ASCII reading would misread are refused. An embedded
///   document may declare no entity at all.
///
/// The checks look at every attribute value, character data and processing instruction; they
/// never read anything but the bytes given.
enum SVGPreflight {
    /// The most numbers a `kernelMatrix` may hold.
    static let maxKernelNumbers = 399
    /// How many documents deep `data:` addresses may nest.
    static let maxDepth = 3

    static func check(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        var budget = max(bytes.count, 1 << 20)
        try check(bytes, depth: 0, budget: &budget)
    }

    private static func check(_ bytes: UnsafeRawBufferPointer, depth: Int, budget: inout Int) throws(WebImageError) {
        try checkEncoding(bytes)
        var scanner = SVGMarkupScanner(bytes)
        var entities = SVGEntities()
        var uses = SVGUseGraph()
        while let token = try scanner.next() {
            switch token {
            case .documentType(let range):
                entities = try SVGEntities(declaration: range, in: bytes)
                // librsvg would read an embedded document's entities itself, and keep them for
                // good (see SVGEntityInlining, which only rewrites the outer document).
                guard depth == 0 || entities.values.isEmpty else {
                    throw SVGEntities.refused("a document it embeds declares entities")
                }
            case .startTag(let tag):
                let name = SVGMarkup.localName(bytes, tag.name)
                let isUse = name == "use"
                var id: String?
                var useTarget: String?
                for attribute in tag.attributes {
                    let value = try entities.expanded(attribute.value, in: bytes, budget: &budget)
                    switch SVGMarkup.localName(bytes, attribute.name) {
                    case "kernelMatrix": try checkKernel(value)
                    case "id": id = String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    case "href" where isUse: useTarget = fragment(value)
                    default: break
                    }
                    try checkAddresses(in: value, depth: depth, budget: &budget)
                }
                try uses.start(name: name, id: id, useTarget: useTarget, isEmpty: tag.isEmpty)
            case .endTag:
                try uses.end()
            case .text(let range):
                try checkAddresses(
                    in: entities.expanded(range, in: bytes, budget: &budget), depth: depth, budget: &budget)
            case .characterData(let range), .processingInstruction(let range):
                try checkAddresses(
                    in: Array(UnsafeRawBufferPointer(rebasing: bytes[range])), depth: depth, budget: &budget)
            case .comment:
                break
            }
        }
        try uses.check()
    }

    /// The element a same-document reference (`#name`) names, or nil for any other reference.
    private static func fragment(_ value: [UInt8]) -> String? {
        let text = String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("#"), text.count > 1 else { return nil }
        return String(text.dropFirst())
    }

    /// Refuses byte orders and encodings in which the markup is not ASCII: UTF-16 and UTF-32
    /// (with or without a byte order mark), EBCDIC, and declared encodings other than UTF-8,
    /// ASCII and the single-byte Latin ones.
    static func checkEncoding(_ bytes: UnsafeRawBufferPointer) throws(WebImageError) {
        let start = Array(bytes.prefix(4))
        let unreadable: [[UInt8]] = [
            [0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00], [0x3C, 0x00], [0x00, 0x3C], [0x4C, 0x6F, 0xA7, 0x94],
        ]
        if unreadable.contains(where: { start.starts(with: $0) }) {
            throw SVGEntities.refused("it is not in an ASCII-compatible encoding")
        }
        let offset = start.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard SVGMarkup.matches("<?xml", in: bytes, at: offset),
            let close = SVGMarkup.find("?>", in: bytes, from: offset, before: min(bytes.count, offset + 1024)),
            let key = SVGMarkup.find("encoding", in: bytes, from: offset, before: close)
        else { return }
        var at = key + "encoding".utf8.count
        while at < close, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "'") { at += 1 }
        guard at < close, let end = SVGMarkup.closingQuote(bytes[at], in: bytes, from: at + 1, before: close) else {
            return
        }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at + 1..<end]), as: UTF8.self).lowercased()
        let readable =
            ["utf-8", "utf8", "us-ascii", "ascii", "latin1"].contains(name) || name.hasPrefix("iso-8859-")
            || name.hasPrefix("windows-125")
        guard readable else { throw SVGEntities.refused("it declares the encoding '\(name.prefix(40))'") }
    }

    private static func checkKernel(_ value: [UInt8]) throws(WebImageError) {
        var numbers = 0
        var inNumber = false
        for byte in value {
            let separator = SVGMarkup.isSpace(byte) || byte == UInt8(ascii: ",")
            if !separator, !inNumber { numbers += 1 }
            inNumber = !separator
        }
        guard numbers <= maxKernelNumbers else {
            throw SVGEntities.refused(
                "an feConvolveMatrix kernel has \(numbers) numbers; librsvg fails on more than \(maxKernelNumbers)")
        }
    }

    /// Checks every `data:` address in `text`: its type, and the document it holds.
    private static func checkAddresses(in text: [UInt8], depth: Int, budget: inout Int) throws(WebImageError) {
        guard text.count >= 6 else { return }
        try text.withUnsafeBytesTyped { bytes throws(WebImageError) in
            var at = 0
            while let found = findDataScheme(in: bytes, from: at) {
                at = found + 5
                guard let address = SVGDataAddress(bytes, schemeAt: found) else { continue }
                guard address.isImageOrFont else {
                    throw SVGEntities.refused(
                        "it refers to data of type '\(address.mediaType.prefix(40))'; only images and fonts are allowed"
                    )
                }
                let payload = try address.decodedPayload()
                try checkEmbedded(payload, depth: depth + 1, budget: &budget)
                at = address.end
            }
        }
    }

    /// An embedded file: a raster image is left to librsvg's image loader; anything else may be
    /// read as a document and is checked as one.
    private static func checkEmbedded(_ payload: [UInt8], depth: Int, budget: inout Int) throws(WebImageError) {
        try payload.withUnsafeBytesTyped { bytes throws(WebImageError) in
            if bytes.starts(with: [0x1F, 0x8B]) {
                throw SVGEntities.refused("it embeds compressed data")
            }
            let format = ImageFormat.detect(bytes)
            if format != .undefined, format != .svg, !bytes.starts(with: [0xFF, 0xFE]) { return }
            guard depth <= maxDepth else { throw SVGEntities.refused("it embeds documents more than \(maxDepth) deep") }
            try check(bytes, depth: depth, budget: &budget)
        }
    }

    /// The offset of the next `data:` (in any letter case) at or after `start`.
    private static func findDataScheme(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var at = start
        while at + 5 <= bytes.count {
            if bytes[at] | 0x20 == UInt8(ascii: "d"), bytes[at + 1] | 0x20 == UInt8(ascii: "a"),
                bytes[at + 2] | 0x20 == UInt8(ascii: "t"), bytes[at + 3] | 0x20 == UInt8(ascii: "a"),
                bytes[at + 4] == UInt8(ascii: ":")
            {
                return at
            }
            at += 1
        }
        return nil
    }
}
