import Foundation

/// The parts of a request URL the cookie algorithms need (RFC 6265 5.1), canonicalised once.
struct CookieOrigin {
    /// The lowercase host, without the brackets of an IPv6 literal.
    var host: String
    /// Whether the host is an IP address: such hosts never domain-match anything but themselves.
    var isIPAddress: Bool
    /// The percent-encoded path, `/` when the URL has none.
    var path: String
    /// Whether the scheme is HTTPS, the only one `Secure` cookies travel over.
    var isSecure: Bool

    /// Nil for a URL that cannot carry cookies: not HTTP(S), or without a host.
    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        isIPAddress = Self.isIPAddress(host)
        let encodedPath = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        path = encodedPath.hasPrefix("/") ? encodedPath : "/"
        isSecure = scheme == "https"
    }

    /// IPv6 literals contain colons; a host whose last label is numeric is an IPv4 address
    /// (the WHATWG URL rule), never a domain name.
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let last = host.split(separator: ".", omittingEmptySubsequences: false).last ?? ""
        return !last.isEmpty && last.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The host and every parent domain, most specific first: the domains whose cookies may
    /// apply to a request to this host.
    var candidateDomains: [String] {
        if isIPAddress { return [host] }
        var domains = [host]
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if !rest.isEmpty { domains.append(String(rest)) }
        }
        return domains
    }

    /// RFC 6265 5.1.3: the host equals `domain`, or ends with `.domain` and is not an IP address.
    func domainMatches(_ domain: String) -> Bool {
        if host == domain { return true }
        guard !isIPAddress, host.utf8.count > domain.utf8.count, host.hasSuffix(domain) else { return false }
        return host.utf8.dropLast(domain.utf8.count).last == UInt8(ascii: ".")
    }

    /// RFC 6265 5.1.4: the directory of the request path, `/` for a top-level or odd path.
    var defaultPath: String {
        guard let lastSlash = path.lastIndex(of: "/"), lastSlash != path.startIndex else { return "/" }
        return String(path[..<lastSlash])
    }

    /// RFC 6265 5.1.4: `cookiePath` is the request path, or a prefix of it that ends at a `/`.
    func pathMatches(_ cookiePath: String) -> Bool {
        if path == cookiePath { return true }
        guard path.hasPrefix(cookiePath) else { return false }
        if cookiePath.hasSuffix("/") { return true }
        return path.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }
}
