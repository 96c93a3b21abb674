/// The text encodings EXIF values come in: NUL-terminated ASCII, printable UNDEFINED bytes
/// (`ExifVersion`'s `0230`), the 8-byte character code in front of `UserComment` and the GPS
/// names, and the UTF-16 of Windows' `XP` tags.
enum EXIFText {
    /// The longest text read; a longer value is skipped rather than cut.
    static let maxBytes = 65_536

    /// ASCII (in practice often UTF-8): up to the first NUL, without trailing white space.
    /// Invalid UTF-8 reads as U+FFFD.
    static func ascii(_ bytes: some Collection<UInt8>) -> String? {
        guard bytes.count <= maxBytes else { return nil }
        var text = Array(bytes.prefix { $0 != 0 })
        while let last = text.last, [0x20, 0x09, 0x0A, 0x0D].contains(last) { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }

    /// Bytes that are printable ASCII once trailing NULs are dropped, as text; nil for binary data.
    static func printable(_ bytes: [UInt8]) -> String? {
        guard bytes.count <= maxBytes else { return nil }
        var text = bytes[...]
        while text.last == 0 { text = text.dropLast() }
        guard !text.isEmpty, text.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// `UserComment`, `GPSProcessingMethod`, `GPSAreaInformation`: an 8-byte character code
    /// (`ASCII`, `UNICODE`, `JIS` or eight NULs for undefined), then the text. UNICODE is UTF-16
    /// in the block's byte order unless a byte-order mark says otherwise. Nil for JIS (not
    /// decoded) and for bytes that are no text.
    static func withCharacterCode(_ bytes: [UInt8], littleEndian: Bool) -> String? {
        guard bytes.count >= 8, bytes.count <= maxBytes else { return nil }
        let code = bytes[0..<8]
        let body = Array(bytes[8...])
        if code.starts(with: Array("ASCII".utf8)) { return ascii(body) }
        if code.starts(with: Array("UNICODE".utf8)) { return utf16(body, littleEndian: littleEndian) }
        guard code.allSatisfy({ $0 == 0 }) else { return nil }
        // Undefined: cameras often fill it with spaces or NULs, which reads as empty text.
        guard let text = ascii(body) else { return nil }
        return text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) ? text : nil
    }

    /// UTF-16 text up to its first NUL; a leading byte-order mark overrides `littleEndian`.
    static func utf16(_ bytes: [UInt8], littleEndian: Bool) -> String? {
        guard bytes.count <= maxBytes else { return nil }
        var body = bytes[...]
        var little = littleEndian
        if body.starts(with: [0xFF, 0xFE]) || body.starts(with: [0xFE, 0xFF]) {
            little = body.first == 0xFF
            body = body.dropFirst(2)
        }
        var units: [UInt16] = []
        units.reserveCapacity(body.count / 2)
        var index = body.startIndex
        while index + 1 < body.endIndex {
            let first = UInt16(body[index])
            let second = UInt16(body[index + 1])
            let unit = little ? first | second << 8 : first << 8 | second
            if unit == 0 { break }
            units.append(unit)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
