import AsyncHTTPClient
import Foundation
import NIOSSL

/// The rules a transfer applies to URLs and credentials: which URLs are sent at all, when
/// credentials may follow a redirect, and how a body nobody reads is dropped.
extension HTTPTransfer {
    /// Certificates are not verified (``ImageDownloaderOptions/allowInvalidSSLCertificates``);
    /// the pool keys connections by TLS configuration, so these never serve other requests.
    static let insecureTLS: TLSConfiguration = {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        return tls
    }()

    /// Whether `url` (whose `absoluteString` is given) is http or https with a host: the only
    /// URLs sent (AsyncHTTPClient would also reach Unix sockets). A plain
    /// `http[s]://host[:port]` start is recognised on the string; anything else is asked of
    /// Foundation's parser, whose scheme and host getters cost more than the rest of this check.
    static func isFetchable(_ url: URL, absoluteString: String) -> Bool {
        if hasPlainHTTPStart(absoluteString) { return true }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host?.isEmpty == false
    }

    /// `http://` or `https://` (any case), then a non-empty host of letters, digits, `-` and
    /// `.`, an optional `:` and digits, and the end or `/`, `?` or `#`. False means "not
    /// recognised", not "invalid".
    private static func hasPlainHTTPStart(_ string: String) -> Bool {
        var bytes = string.utf8.makeIterator()
        for expected in "http".utf8 {
            // `| 0x20` lowercases an ASCII letter; no other byte lands on a lowercase letter.
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        var next = bytes.next()
        if let byte = next, byte | 0x20 == UInt8(ascii: "s") { next = bytes.next() }
        guard next == UInt8(ascii: ":"), bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "/") else {
            return false
        }
        var hostLength = 0
        var inPort = false
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return hostLength > 0
            case UInt8(ascii: ":") where !inPort:
                inPort = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if !inPort { hostLength += 1 }
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"),
                UInt8(ascii: "."):
                guard !inPort else { return false }
                hostLength += 1
            default:
                return false
            }
        }
        return hostLength > 0
    }

    static func isBasicChallenge(_ value: String) -> Bool {
        value.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("basic")
    }

    static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && a.port == b.port
    }

    /// Reads and drops a small body (a redirect's or a challenge's) so the connection can be
    /// reused; a large one is abandoned, which closes the connection.
    static func discard(_ body: HTTPClientResponse.Body) async {
        var remaining = 64 * 1024
        do {
            for try await chunk in body {
                remaining -= chunk.readableBytes
                if remaining < 0 { return }
            }
        } catch {}
    }
}
