import Foundation

/// One value read from a metadata block (EXIF, IPTC, Photoshop or XMP): text, a number, or a
/// list of values, the shapes a JSON response can carry.
///
/// Encodes as a bare JSON string, number or array, so a dictionary of values encodes as the JSON
/// object imgproxy's `/info` endpoint returns.
public enum MetadataValue: Sendable, Hashable, Encodable {
    /// Text: a string tag, an enumerated value's meaning, or a formatted fraction such as `"1/250"`.
    case text(String)
    /// A whole number: a SHORT or LONG tag, an IPTC number.
    case integer(Int)
    /// A number with a fraction: a FLOAT or DOUBLE tag, a fixed-point resolution. Always finite
    /// (JSON has no NaN or infinity).
    case number(Double)
    /// A repeated value: a tag with several components, a repeated IPTC dataset, an XMP array.
    case list([MetadataValue])

    /// The text, when the value is text.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The whole number, when the value is one.
    public var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number, when the value is one with a fraction.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The items, when the value is a list.
    public var list: [MetadataValue]? {
        if case .list(let items) = self { return items }
        return nil
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .text(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .list(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        }
    }
}
