/// Why a transfer failed below HTTP: the detail of ``WebImageError/transferFailed(_:underlying:)``.
///
/// SDWebImage passes `NSURLError`s through; these kinds are the ones its blocklist rule tells
/// apart. The transient kinds (``isTransient``) are exactly the URL errors SDWebImage never
/// blocks (cannot connect, connection lost, timed out, cannot find host); every other kind is
/// blocked as SDWebImage blocks the corresponding URL error.
public struct TransferFailure: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The connection was refused or could not be opened (`NSURLErrorCannotConnectToHost`).
        case cannotConnect
        /// The host name did not resolve (`NSURLErrorCannotFindHost`).
        case cannotFindHost
        /// The connection closed or reset before the response was complete, including a body
        /// shorter than its `Content-Length` (`NSURLErrorNetworkConnectionLost`).
        case connectionLost
        /// No response, or no progress, within the timeout (`NSURLErrorTimedOut`).
        case timedOut
        /// The TLS handshake or certificate check failed (`NSURLErrorSecureConnectionFailed`,
        /// `NSURLErrorServerCertificateUntrusted`).
        case secureConnectionFailed
        /// The redirect limit was exceeded or a redirect loops (`NSURLErrorHTTPTooManyRedirects`).
        case tooManyRedirects
        /// The body is larger than the configured maximum (`NSURLErrorDataLengthExceedsMaximum`).
        case responseTooLarge
        /// The server's response could not be parsed (`NSURLErrorBadServerResponse`).
        case badServerResponse
        /// A `file:` URL names no readable file (`NSURLErrorFileDoesNotExist`).
        case fileNotFound
        /// A `file:` URL could not be read (`NSURLErrorCannotOpenFile`).
        case cannotReadFile
    }

    public var kind: Kind
    /// What went wrong, for people: the URL, the limit, the underlying error.
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// Whether the same request may well succeed later: these are never blocklisted, and the
    /// downloader's retry policy retries them.
    public var isTransient: Bool {
        switch kind {
        case .cannotConnect, .cannotFindHost, .connectionLost, .timedOut: true
        default: false
        }
    }

    public var description: String {
        let what =
            switch kind {
            case .cannotConnect: "cannot connect"
            case .cannotFindHost: "cannot find host"
            case .connectionLost: "connection lost"
            case .timedOut: "timed out"
            case .secureConnectionFailed: "secure connection failed"
            case .tooManyRedirects: "too many redirects"
            case .responseTooLarge: "response too large"
            case .badServerResponse: "bad server response"
            case .fileNotFound: "file not found"
            case .cannotReadFile: "cannot read file"
            }
        return detail.isEmpty ? what : "\(what): \(detail)"
    }
}
