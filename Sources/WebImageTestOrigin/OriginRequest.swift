import NIOHTTP1
import WebImage

/// A request's target split into its path and decoded query parameters.
struct OriginRequest {
    var head: HTTPRequestHead
    /// The path as sent (still percent-encoded), without the query.
    var path: String
    /// The raw query (after `?`), percent-encoded as sent; empty when absent.
    var rawQuery: Substring
    /// Decoded `name=value` pairs in order; a parameter without `=` has an empty value.
    var parameters: [(name: String, value: String)]

    init(head: HTTPRequestHead) {
        self.head = head
        let uri = head.uri
        if let mark = uri.firstIndex(of: "?") {
            path = String(uri[..<mark])
            rawQuery = uri[uri.index(after: mark)...]
        } else {
            path = uri
            rawQuery = ""
        }
        parameters = Self.parse(rawQuery)
    }

    var isHead: Bool { head.method == .HEAD }

    /// Whether the client allows a keep-alive connection after this response.
    var keepAlive: Bool { head.isKeepAlive }

    /// The first value of `name`, or `nil` when the query lacks it.
    func value(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    func values(_ name: String) -> [String] {
        parameters.filter { $0.name == name }.map(\.value)
    }

    /// The same target with `name`'s value replaced (other parameters untouched, in order).
    func target(replacing name: String, with value: String) -> String {
        let pieces = rawQuery.split(separator: "&", omittingEmptySubsequences: false).map { piece in
            let key = piece.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return percentDecoded(key) == name ? "\(name)=\(value)" : String(piece)
        }
        return path + "?" + pieces.joined(separator: "&")
    }

    private static func parse(_ query: Substring) -> [(name: String, value: String)] {
        query.split(separator: "&").map { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecoded(parts[0])
            let value = parts.count > 1 ? percentDecoded(parts[1]) : ""
            return (name, value)
        }
    }
}

/// `%XX` decoding; a malformed escape is kept literally rather than rejecting the request, so hostile
/// targets still get a well-formed answer.
func percentDecoded<S: StringProtocol>(_ text: S) -> String {
    guard text.contains("%") else { return String(text) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = Array(text.utf8)[...]
    while let byte = iterator.popFirst() {
        if byte == UInt8(ascii: "%"), iterator.count >= 2,
            let high = iterator[iterator.startIndex].hexDigitValue,
            let low = iterator[iterator.startIndex + 1].hexDigitValue
        {
            bytes.append(high << 4 | low)
            iterator = iterator.dropFirst(2)
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
