import NIOCore
import NIOHTTP1
import WebImage

/// A complete response before transport faults apply.
struct OriginResponse {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    /// `nil` for responses that carry no body (204, 304).
    var body: ByteBuffer?

    /// A response with a short plain-text body, for errors, challenges and redirects.
    static func text(_ status: HTTPResponseStatus, _ message: String, headers extra: [(String, String)] = [])
        -> OriginResponse
    {
        let body = ByteBuffer(string: message + "\n")
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        for (name, value) in extra { headers.add(name: name, value: value) }
        return OriginResponse(status: status, headers: headers, body: body)
    }

    /// A response for `resource`, with Content-Type and Content-Length.
    static func serving(_ resource: Resource) -> OriginResponse {
        var headers = HTTPHeaders()
        if let type = resource.contentType { headers.add(name: "Content-Type", value: type) }
        headers.add(name: "Content-Length", value: String(resource.body.readableBytes))
        for (name, value) in resource.extraHeaders { headers.add(name: name, value: value) }
        return OriginResponse(status: .ok, headers: headers, body: resource.body)
    }

    /// Drops the body and its framing headers, as 204 and 304 require.
    mutating func removeBody() {
        body = nil
        headers.remove(name: "Content-Length")
        headers.remove(name: "Content-Type")
        headers.remove(name: "Content-Encoding")
    }
}

/// IMF-fixdate handling for `lastModified=1`.
enum HTTPDate {
    /// The fixed Last-Modified every `lastModified=1` response carries.
    static let lastModified = "Sat, 01 Jan 2022 00:00:00 GMT"
    private static let lastModifiedFields = [2022, 1, 1, 0, 0, 0]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Whether `value` (an If-Modified-Since) is at or after ``lastModified``; false if unparsable,
    /// as RFC 9110 says an invalid date makes the condition not apply.
    static func isAtOrAfterLastModified(_ value: String) -> Bool {
        guard let fields = parse(value) else { return false }
        return fields.lexicographicallyPrecedes(lastModifiedFields) == false
    }

    /// `[year, month, day, hour, minute, second]` of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func parse(_ value: String) -> [Int]? {
        let parts = value.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: String(parts[2]))
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        return [year, month + 1, day] + time
    }
}
