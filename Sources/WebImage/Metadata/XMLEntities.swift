/// Decodes XML's references in text and attribute values: the five predefined entities
/// (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`) and character references (`&#233;`, `&#xE9;`).
///
/// Anything else after `&` (an unknown entity, a reference to no character, a missing `;`) is
/// kept as written: a tolerant reader shows what the packet says rather than dropping it.
enum XMLEntities {
    private static let named: [String: UInt8] = ["amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27]
    /// The longest reference looked for: `&#x10FFFF;` and `&#1114111;` fit.
    private static let maxReferenceLength = 10

    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&"),
                let semicolon = bytes[index..<min(bytes.endIndex, index + maxReferenceLength + 1)]
                    .firstIndex(of: UInt8(ascii: ";")),
                let replacement = reference(String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self))
            else {
                out.append(byte)
                index += 1
                continue
            }
            out += replacement
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The UTF-8 bytes `&name;` stands for, or nil when it stands for nothing.
    private static func reference(_ name: String) -> [UInt8]? {
        if let byte = named[name] { return [byte] }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let hex = digits.hasPrefix("x") || digits.hasPrefix("X")
        let number = hex ? digits.dropFirst() : digits
        // Digits only: the integer parser would also take a sign.
        guard number.allSatisfy(\.isHexDigit), let code = UInt32(number, radix: hex ? 16 : 10), code != 0,
            let scalar = Unicode.Scalar(code)
        else { return nil }
        return Array(String(Character(scalar)).utf8)
    }
}
