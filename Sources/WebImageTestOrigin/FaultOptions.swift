import WebImage

/// A query parameter the origin cannot honour; answered with 400 and this message.
struct BadParameter: Error, CustomStringConvertible {
    var description: String
}

/// The fault-injection query parameters of one request, validated.
struct FaultOptions {
    /// Upper bound for every millisecond parameter, so a typo cannot park a connection for days.
    static let maximumMilliseconds: Int64 = 120_000
    static let maximumRedirects = 1000

    // Transport faults: how the response travels.
    var delay: Int64 = 0
    var drip: (bytes: Int, milliseconds: Int64)?
    var chunked = false
    var reset: Int?
    var short: Int?
    /// `long=N`: Content-Length says N bytes fewer than the body that is sent.
    var long: Int?
    var stall = false
    var close = false

    // What the response says.
    var status: Int?
    /// `nil`: keep the resource's type; `.some("")`: send no Content-Type.
    var type: String?
    var etag: String?
    var lastModified = false
    var cacheControl: String?
    var setCookie: String?
    var requireCookie: (name: String, value: String)?
    var auth: String?
    var redirect: Int?
    var redirectTo: String?
    var redirectLoop = false
    var fail: Int?
    var failStatus = 503
    var retryAfter: String?
    var gzip = false
    var deflate = false
    var headers: [(String, String)] = []

    /// True when no parameter changes the response, so the benchmark's fast path applies.
    var isPlain = true

    init() {}

    init(_ request: OriginRequest) throws(BadParameter) {
        for (name, value) in request.parameters {
            try apply(name: name, value: value)
        }
    }

    private mutating func apply(name: String, value: String) throws(BadParameter) {
        switch name {
        case "delay": delay = try milliseconds(value, name)
        case "drip": drip = try parseDrip(value)
        case "chunked": chunked = flag(value)
        case "reset": reset = try count(value, name)
        case "short": short = try count(value, name)
        case "long": long = try count(value, name)
        case "stall": stall = flag(value)
        case "close": close = flag(value)
        case "status": status = try statusCode(value, name)
        case "type": type = try headerValue(value, name)
        case "etag":
            guard !value.contains("\"") else { throw BadParameter(description: "etag must not contain quotes") }
            etag = try headerValue(value, name)
        case "lastModified": lastModified = flag(value)
        case "cacheControl": cacheControl = try headerValue(value, name)
        case "setCookie": setCookie = try headerValue(value, name)
        case "requireCookie": requireCookie = try parseCookie(value)
        case "auth": auth = try headerValue(value, name)
        case "redirect": redirect = try bounded(value, name, 0...Self.maximumRedirects)
        case "redirectTo":
            guard value.hasPrefix("/"), !value.hasPrefix("//") else {
                throw BadParameter(description: "redirectTo must be a path on this origin, got \(value)")
            }
            redirectTo = try headerValue(value, name)
        case "redirectLoop": redirectLoop = flag(value)
        case "fail": fail = try count(value, name)
        case "failStatus": failStatus = try statusCode(value, name)
        case "retryAfter": retryAfter = try headerValue(value, name)
        case "gzip": gzip = flag(value)
        case "deflate": deflate = flag(value)
        case "header": headers.append(try parseHeader(value))
        default: return  // seeds, cache busters and anything else leave the response alone
        }
        isPlain = false
    }

    private func flag(_ value: String) -> Bool { value != "0" && value != "false" }

    private func bounded(_ value: String, _ name: String, _ range: ClosedRange<Int>) throws(BadParameter) -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw BadParameter(description: "\(name) must be an integer in \(range), got \(value)")
        }
        return number
    }

    private func count(_ value: String, _ name: String) throws(BadParameter) -> Int {
        try bounded(value, name, 0...Int(Int32.max))
    }

    private func milliseconds(_ value: String, _ name: String) throws(BadParameter) -> Int64 {
        Int64(try bounded(value, name, 0...Int(Self.maximumMilliseconds)))
    }

    /// 1xx codes are refused: a client would wait for a final response that never comes.
    private func statusCode(_ value: String, _ name: String) throws(BadParameter) -> Int {
        try bounded(value, name, 200...599)
    }

    private func parseDrip(_ value: String) throws(BadParameter) -> (bytes: Int, milliseconds: Int64) {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw BadParameter(description: "drip must be BYTES:MS, got \(value)") }
        let bytes = try bounded(String(parts[0]), "drip bytes", 1...Int(Int32.max))
        return (bytes, try milliseconds(String(parts[1]), "drip interval"))
    }

    private func parseCookie(_ value: String) throws(BadParameter) -> (name: String, value: String) {
        let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw BadParameter(description: "requireCookie must be NAME=VALUE, got \(value)")
        }
        return (String(parts[0]), String(parts[1]))
    }

    private func parseHeader(_ value: String) throws(BadParameter) -> (String, String) {
        let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, isToken(parts[0]) else {
            throw BadParameter(description: "header must be NAME:VALUE with a token name, got \(value)")
        }
        return (String(parts[0]), try headerValue(parts[1].trimmingLeadingSpaces, "header"))
    }

    /// Rejects control characters, which would split or corrupt the response head.
    private func headerValue<S: StringProtocol>(_ value: S, _ name: String) throws(BadParameter) -> String {
        guard !value.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else {
            throw BadParameter(description: "\(name) must not contain control characters")
        }
        return String(value)
    }

    private func isToken(_ name: Substring) -> Bool {
        let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)
        return !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !separators.contains($0) }
    }
}

extension Substring {
    fileprivate var trimmingLeadingSpaces: Substring { drop { $0 == " " } }
}
