import Foundation

/// A `data:` address found in an SVG document (RFC 2397): its media type and its payload,
/// base64 or percent-encoded.
struct SVGDataAddress {
    /// Lowercased, without parameters; empty when the address gives none (which means text).
    let mediaType: String
    let isBase64: Bool
    /// The payload as written: from after the comma to the first quote, `)` or `<`, or the end.
    let payload: [UInt8]
    /// The offset just past the payload.
    let end: Int

    /// The address whose `data:` starts at `offset`, or nil when no comma follows its type.
    init?(_ bytes: UnsafeRawBufferPointer, schemeAt offset: Int) {
        var at = offset + 5
        let headerStart = at
        while at < bytes.count, bytes[at] != UInt8(ascii: ",") {
            let byte = bytes[at]
            // A header holds a type and parameters, never white space, quotes or brackets.
            if byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: ")")
                || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            {
                return nil
            }
            at += 1
        }
        guard at < bytes.count else { return nil }
        let header = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[headerStart..<at]), as: UTF8.self)
            .lowercased()
        let parts = header.split(separator: ";", omittingEmptySubsequences: false)
        mediaType = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        isBase64 = parts.dropFirst().contains { $0.trimmingCharacters(in: .whitespaces) == "base64" }
        let payloadStart = at + 1
        at = payloadStart
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: ")")
                || byte == UInt8(ascii: "<")
            {
                break
            }
            at += 1
        }
        payload = Array(UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<at]))
        end = at
    }

    /// Whether the address holds an image or a font (the only data an SVG needs to embed).
    var isImageOrFont: Bool {
        mediaType.hasPrefix("image/") || mediaType.hasPrefix("font/") || mediaType.hasPrefix("application/font")
            || mediaType.hasPrefix("application/x-font")
    }

    /// The payload's bytes. Base64 may be broken by white space and lack its padding; anything
    /// else that is not base64, or a `%` not followed by two hexadecimal digits, is an error.
    func decodedPayload() throws(WebImageError) -> [UInt8] {
        if isBase64 {
            var text = payload.filter { !SVGMarkup.isSpace($0) }
            while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
            guard let data = Data(base64Encoded: Data(text)) else {
                throw SVGEntities.refused("a data: address holds broken base64")
            }
            return [UInt8](data)
        }
        var out: [UInt8] = []
        out.reserveCapacity(payload.count)
        var at = 0
        while at < payload.count {
            if payload[at] == UInt8(ascii: "%") {
                guard at + 2 < payload.count, let high = Self.hexValue(payload[at + 1]),
                    let low = Self.hexValue(payload[at + 2])
                else { throw SVGEntities.refused("a data: address holds a broken percent escape") }
                out.append(high << 4 | low)
                at += 3
            } else {
                out.append(payload[at])
                at += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
