import Foundation

/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// Names must be RFC 9110 tokens and values must hold no control characters other than tab —
/// above all no CR or LF, which would let a value inject further headers into the request.
/// ``set(name:value:)`` and ``add(name:value:)`` throw ``WebImageError/invalidArgument(_:underlying:)`` for
/// an invalid field; the subscript setter and the dictionary literal, which cannot throw,
/// silently ignore it (the list is left unchanged). Leading and trailing spaces and tabs of a
/// value are trimmed.
public struct ImageDownloadHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Field = (name: String, value: String)

    /// The fields in order, names as they were given.
    public private(set) var fields: [Field] = []

    /// `Accept: image/*,*/*;q=0.8` (SDWebImage's) and `User-Agent: swift-web-image/<version> (<OS>; Swift)`.
    public static let defaultImageHeaders: ImageDownloadHeaders = [
        "Accept": "image/*,*/*;q=0.8", "User-Agent": WebImageUserAgent.default,
    ]

    public init() {}

    /// The fields of `headers` in order; invalid fields throw.
    public init(_ headers: [(String, String)]) throws(WebImageError) {
        for (name, value) in headers { try add(name: name, value: value) }
    }

    /// Fields in literal order; invalid fields are ignored, repeated names are all kept.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { try? add(name: name, value: value) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Every value of the fields called `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// The values of `name` combined as RFC 9110 5.3 combines them (joined by `, `), or nil if
    /// absent. Setting replaces every field called `name` (at the position of the first); nil
    /// removes them; an invalid name or value is ignored (use ``set(name:value:)`` to get an error).
    public subscript(name: String) -> String? {
        get {
            // One field is the common case: answer it without building an array.
            guard let first = fields.firstIndex(where: { Self.namesEqual($0.name, name) }) else { return nil }
            let rest = fields[(first + 1)...]
            guard rest.contains(where: { Self.namesEqual($0.name, name) }) else { return fields[first].value }
            return values(for: name).joined(separator: ", ")
        }
        set { try? set(name: name, value: newValue) }
    }

    /// Replaces every field called `name` with one holding `value` (at the position of the first
    /// such field, else at the end); nil removes them.
    public mutating func set(name: String, value: String?) throws(WebImageError) {
        guard let value else {
            fields.removeAll { Self.namesEqual($0.name, name) }
            return
        }
        let field = try Self.validated(name: name, value: value)
        if let first = fields.firstIndex(where: { Self.namesEqual($0.name, name) }) {
            fields[first] = field
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if Self.namesEqual(fields[index].name, name) { fields.remove(at: index) } else { index += 1 }
            }
        } else {
            fields.append(field)
        }
    }

    /// Appends a field, keeping any others with the same name.
    public mutating func add(name: String, value: String) throws(WebImageError) {
        fields.append(try Self.validated(name: name, value: value))
    }

    /// These headers with every name in `other` replaced by `other`'s fields, e.g. a request's
    /// own headers over the downloader's.
    public func merging(_ other: ImageDownloadHeaders) -> ImageDownloadHeaders {
        var merged = self
        var replaced: [String] = []
        for field in other.fields where !replaced.contains(where: { Self.namesEqual($0, field.name) }) {
            replaced.append(field.name)
            merged.fields.removeAll { Self.namesEqual($0.name, field.name) }
        }
        merged.fields += other.fields
        return merged
    }

    /// Same fields in the same order; names compare case-insensitively, values exactly.
    public static func == (lhs: ImageDownloadHeaders, rhs: ImageDownloadHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { namesEqual($0.name, $1.name) && $0.value == $1.value }
    }

    private static func validated(name: String, value: String) throws(WebImageError) -> Field {
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
            throw .invalidArgument("\(String(name.prefix(100)).debugDescription) is not a valid HTTP header name")
        }
        let trimmed = trimmingSpacesAndTabs(value)
        guard !trimmed.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
            throw .invalidArgument(
                "the value of HTTP header '\(name)' contains a control character such as CR or LF: "
                    + String(value.prefix(100)).debugDescription)
        }
        return (name, trimmed)
    }

    /// `value` without leading and trailing spaces and tabs (a byte scan: this runs for every
    /// field of every response).
    private static func trimmingSpacesAndTabs(_ value: String) -> String {
        let bytes = value.utf8
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.first, let last = bytes.last, isBlank(first) || isBlank(last) else { return value }
        guard let start = bytes.firstIndex(where: { !isBlank($0) }), let end = bytes.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(value[start...end])
    }

    /// RFC 9110 5.6.2 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Names are ASCII tokens, so an ASCII case fold is the whole comparison.
    static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count
            && zip(lhs.utf8, rhs.utf8).allSatisfy { ($0 | 0x20 == $1 | 0x20) && ($0 == $1 || isLetter($0)) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
