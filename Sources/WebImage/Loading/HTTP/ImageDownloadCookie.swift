import Foundation

/// One cookie held by an ``ImageDownloadCookieStore``, after the RFC 6265 storage model has
/// resolved its attributes against the URL that set it.
public struct ImageDownloadCookie: Sendable, Equatable, Hashable {
    public var name: String
    public var value: String
    /// The lowercase host (host-only cookies) or domain (domain cookies) the cookie belongs to.
    public var domain: String
    /// Whether the cookie goes back only to exactly ``domain``, not to its subdomains: true when
    /// `Set-Cookie` had no `Domain` attribute, and always for IP-address hosts.
    public var hostOnly: Bool
    /// The path prefix (`Path` attribute, else the default path of the URL that set it).
    public var path: String
    /// When the cookie expires (`Max-Age`, which wins, else `Expires`); nil for a session cookie,
    /// which lives as long as the store.
    public var expires: Date?
    /// Sent only over HTTPS.
    public var secure: Bool
    /// `HttpOnly`: recorded; every request the downloader makes is an HTTP request.
    public var httpOnly: Bool

    public init(
        name: String, value: String, domain: String, hostOnly: Bool, path: String, expires: Date? = nil,
        secure: Bool = false, httpOnly: Bool = false
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.expires = expires
        self.secure = secure
        self.httpOnly = httpOnly
    }
}

/// A `Set-Cookie` line split into its parts (RFC 6265 5.2), before the storage model applies
/// the URL. Lines the algorithm says to ignore parse to nil.
struct SetCookieLine: Equatable {
    /// RFC 6265 6.1 asks user agents to keep at least 4096 bytes per cookie; we keep at most that.
    static let maximumNameValueBytes = 4096
    /// RFC 6265bis 5.6: attribute values longer than 1024 bytes are ignored.
    static let maximumAttributeValueBytes = 1024
    /// Anything longer cannot be a cookie we would keep, so it is not even split.
    static let maximumLineBytes = 8192

    var name: String
    var value: String
    /// The `Expires` date, if present and parsable (the last one wins).
    var expires: Date?
    /// The `Max-Age` seconds, if present and well formed (the last one wins).
    var maxAge: Double?
    /// The `Domain` value, without a leading dot, lowercased; nil when absent or empty.
    var domain: String?
    /// The `Path` value when it starts with `/`; nil means "use the default path".
    var path: String?
    var secure = false
    var httpOnly = false

    init?(_ line: String) {
        guard line.utf8.count <= Self.maximumLineBytes else { return nil }
        var parts = line.split(separator: ";", omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
        name = Self.trimmed(pair[..<equals])
        value = Self.trimmed(pair[pair.index(after: equals)...])
        // Control characters (CR and LF above all) would let a hostile server inject headers
        // into the requests that carry this cookie back (RFC 6265bis 5.6 rejects them too).
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= Self.maximumNameValueBytes,
            !Self.hasControlCharacter(name), !Self.hasControlCharacter(value)
        else { return nil }
        for attribute in parts { apply(attribute) }
    }

    private mutating func apply(_ attribute: Substring) {
        let equals = attribute.firstIndex(of: "=")
        let key = Self.trimmed(attribute[..<(equals ?? attribute.endIndex)]).lowercased()
        let argument = equals.map { Self.trimmed(attribute[attribute.index(after: $0)...]) } ?? ""
        guard argument.utf8.count <= Self.maximumAttributeValueBytes else { return }
        switch key {
        case "expires":
            if let date = HTTPDate.parse(argument) { expires = date }
        case "max-age":
            if let seconds = Self.maxAgeSeconds(argument) { maxAge = seconds }
        case "domain":
            let bare = argument.hasPrefix(".") ? String(argument.dropFirst()) : argument
            // An empty Domain is treated as absent, as browsers do.
            domain = bare.isEmpty || Self.hasControlCharacter(bare) ? nil : bare.lowercased()
        case "path":
            path = argument.hasPrefix("/") && !Self.hasControlCharacter(argument) ? argument : nil
        case "secure": secure = true
        case "httponly": httpOnly = true
        default: break
        }
    }

    /// RFC 6265 5.2.2: an optional `-` then digits only; anything else ignores the attribute.
    /// Parsed as a Double so a huge number means "far future" instead of overflowing.
    private static func maxAgeSeconds(_ text: String) -> Double? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Double(digits) else {
            return nil
        }
        return text.hasPrefix("-") ? -number : number
    }

    private static func trimmed(_ text: Substring) -> String {
        text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    }

    static func hasControlCharacter(_ text: String) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }
}
