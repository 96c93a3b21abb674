import Foundation

/// The one error every layer of WebImage throws: a ``code``, a message for people, and the
/// error underneath when there is one.
///
/// A struct around a code rather than an enum, so that a new code is not a breaking change:
/// compare errors with `==` (code plus the structured values below, never the message), test
/// `error.code == .badImageData`, or `catch .cancelled` in typed-throws code.
///
/// The codes 1000–2004 are `SDWebImageError`'s, with its numbers; 3000 and up are ours
/// (SDWebImage has no typed equivalent and reports them as generic failures). Messages never
/// carry the user name or password of a URL they quote.
public struct WebImageError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What kind of failure this is: SDWebImage's numbers, and ours from 3000.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral,
        CustomStringConvertible
    {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public init(integerLiteral value: Int) { rawValue = value }
        public var description: String { String(rawValue) }

        /// Whether `code` has the number `number`, as SDWebImage's `error.code == someInt` reads.
        public static func == (code: Code, number: Int) -> Bool { code.rawValue == number }
        /// Whether `code` has the number `number`.
        public static func == (number: Int, code: Code) -> Bool { code.rawValue == number }
        /// Whether `code` has another number than `number`.
        public static func != (code: Code, number: Int) -> Bool { code.rawValue != number }
        /// Whether `code` has another number than `number`.
        public static func != (number: Int, code: Code) -> Bool { code.rawValue != number }

        /// The URL is missing, empty or not a URL (SDWebImage 1000).
        public static let invalidURL: Code = 1000
        /// The bytes cannot be decoded: empty, corrupt, truncated or 0×0 (SDWebImage 1001).
        public static let badImageData: Code = 1001
        /// The server answered 304 and the cached copy is current (SDWebImage 1002).
        public static let cacheNotModified: Code = 1002
        /// The URL failed before and is on the failed-URL list (SDWebImage 1003).
        public static let blackListed: Code = 1003
        /// No download could be started for the request (SDWebImage 2000).
        public static let invalidDownloadOperation: Code = 2000
        /// The server answered with a status outside the acceptable set (SDWebImage 2001).
        public static let invalidDownloadStatusCode: Code = 2001
        /// The operation was cancelled (SDWebImage 2002).
        public static let cancelled: Code = 2002
        /// The response modifier rejected the response (SDWebImage 2003).
        public static let invalidDownloadResponse: Code = 2003
        /// The response's content type is not acceptable (SDWebImage 2004).
        public static let invalidDownloadContentType: Code = 2004
        /// The image's pixel count exceeds the decode limit; checked before any pixel is allocated.
        public static let imageTooLarge: Code = 3000
        /// No registered coder decodes or encodes this format.
        public static let unsupportedFormat: Code = 3001
        /// Encoding failed inside a codec.
        public static let encodingFailed: Code = 3002
        /// A parameter is out of range (zero sizes, NaN, an empty crop, ...).
        public static let invalidArgument: Code = 3003
        /// The disk cache could not write or read its files (a full disk, a vanished or
        /// read-only directory). Nothing already stored is lost.
        public static let diskCacheFailure: Code = 3004
        /// The transfer failed below HTTP: cannot connect, connection lost, timeout, TLS,
        /// redirect loop, size limit, missing file (SDWebImage passes the `NSURLError` through).
        public static let transferFailed: Code = 3005
        /// The image is not cached and loading it was not allowed: ``WebImageOptions/fromCacheOnly``,
        /// the manager's delegate, or no loader handles the URL. SDWebImage reports this as a
        /// completion with neither image nor error; so does the callback API.
        public static let notLoaded: Code = 3006
        /// The downloader's ``ImageDownloaderConfig/requestValidator`` refused a URL it was about
        /// to request (the first or a redirect's), so nothing was sent.
        public static let requestRefused: Code = 3007
    }

    /// The structured values some codes carry; they take part in `==`, the message does not.
    private enum Detail: Hashable, Sendable {
        case none
        case statusCode(Int)
        case contentType(String?)
        case pixels(width: Int, height: Int, limit: Int)
        case format(ImageFormat)
        case transfer(TransferFailure.Kind)
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, for people (no "error:" prefix; see ``description``).
    public let message: String
    /// The error this one wraps, if it came from elsewhere (a codec, the file system, the HTTP client).
    public let underlying: (any Error)?
    private let detail: Detail
    /// The transfer failure's kind and detail, for ``Code/transferFailed``.
    public let transferFailure: TransferFailure?

    private init(
        _ code: Code, _ message: String, detail: Detail = .none, transferFailure: TransferFailure? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = URLCredentialRedaction.redacted(message)
        self.detail = detail
        self.transferFailure = transferFailure
        self.underlying = underlying
    }

    /// Codes and structured values are equal; messages and underlying errors may differ.
    public static func == (lhs: WebImageError, rhs: WebImageError) -> Bool {
        lhs.code == rhs.code && lhs.detail == rhs.detail
    }

    /// An error with a code this library does not define yet, for your own loaders and coders.
    public static func custom(_ code: Code, _ message: String, underlying: (any Error)? = nil) -> WebImageError {
        WebImageError(code, message, underlying: underlying)
    }

    // MARK: The codes, as values

    /// See ``Code/invalidURL``; `url` is the text that is not a usable URL.
    public static func invalidURL(_ url: String) -> WebImageError {
        WebImageError(.invalidURL, "invalid URL: \(url.isEmpty ? "(empty)" : "'\(url)'")")
    }

    /// See ``Code/badImageData``.
    public static func badImageData(_ reason: String, underlying: (any Error)? = nil) -> WebImageError {
        WebImageError(.badImageData, "bad image data: \(reason)", underlying: underlying)
    }

    /// See ``Code/cacheNotModified``.
    public static let cacheNotModified = WebImageError(
        .cacheNotModified, "the cached image is current (HTTP 304 Not Modified)")

    /// See ``Code/blackListed``.
    public static func blackListed(_ url: String) -> WebImageError {
        WebImageError(.blackListed, "the URL failed before and is blocked: \(url) (use the retryFailed option)")
    }

    /// See ``Code/invalidDownloadOperation``.
    public static func invalidDownloadOperation(_ reason: String) -> WebImageError {
        WebImageError(.invalidDownloadOperation, "the download could not start: \(reason)")
    }

    /// See ``Code/invalidDownloadStatusCode``.
    public static func invalidDownloadStatusCode(_ status: Int) -> WebImageError {
        WebImageError(
            .invalidDownloadStatusCode, "unacceptable HTTP status code \(status)", detail: .statusCode(status))
    }

    /// See ``Code/cancelled``.
    public static let cancelled = WebImageError(.cancelled, "the operation was cancelled")

    /// See ``Code/invalidDownloadResponse``.
    public static let invalidDownloadResponse = WebImageError(
        .invalidDownloadResponse, "the response modifier rejected the response")

    /// See ``Code/invalidDownloadContentType``.
    public static func invalidDownloadContentType(_ contentType: String?) -> WebImageError {
        WebImageError(
            .invalidDownloadContentType, "unacceptable content type \(contentType.map { "'\($0)'" } ?? "(none)")",
            detail: .contentType(contentType))
    }

    /// See ``Code/imageTooLarge``.
    public static func imageTooLarge(width: Int, height: Int, limit: Int) -> WebImageError {
        WebImageError(
            .imageTooLarge, "image too large: \(width)×\(height) pixels exceeds the limit of \(limit) pixels",
            detail: .pixels(width: width, height: height, limit: limit))
    }

    /// See ``Code/unsupportedFormat``.
    public static func unsupportedFormat(_ format: ImageFormat) -> WebImageError {
        WebImageError(.unsupportedFormat, "unsupported image format: \(format.name)", detail: .format(format))
    }

    /// See ``Code/encodingFailed``.
    public static func encodingFailed(_ reason: String, underlying: (any Error)? = nil) -> WebImageError {
        WebImageError(.encodingFailed, "encoding failed: \(reason)", underlying: underlying)
    }

    /// See ``Code/invalidArgument``.
    public static func invalidArgument(_ reason: String, underlying: (any Error)? = nil) -> WebImageError {
        WebImageError(.invalidArgument, "invalid argument: \(reason)", underlying: underlying)
    }

    /// See ``Code/diskCacheFailure``.
    public static func diskCacheFailure(_ reason: String, underlying: (any Error)? = nil) -> WebImageError {
        WebImageError(.diskCacheFailure, "disk cache failure: \(reason)", underlying: underlying)
    }

    /// See ``Code/transferFailed``.
    public static func transferFailed(_ failure: TransferFailure, underlying: (any Error)? = nil) -> WebImageError {
        WebImageError(
            .transferFailed, "transfer failed: \(failure)", detail: .transfer(failure.kind), transferFailure: failure,
            underlying: underlying)
    }

    /// See ``Code/notLoaded``.
    public static func notLoaded(_ reason: String) -> WebImageError {
        WebImageError(.notLoaded, "not in the cache, and not loaded: \(reason)")
    }

    /// See ``Code/requestRefused``.
    public static func requestRefused(_ reason: String) -> WebImageError {
        WebImageError(.requestRefused, "request refused: \(reason)")
    }

    // MARK: Structured values

    /// The HTTP status of an ``Code/invalidDownloadStatusCode`` error.
    public var statusCode: Int? {
        if case .statusCode(let status) = detail { return status }
        return nil
    }

    /// The content type of an ``Code/invalidDownloadContentType`` error (nil when the response had none).
    public var contentType: String? {
        if case .contentType(let type) = detail { return type }
        return nil
    }

    /// The image's size and the limit it passed, for ``Code/imageTooLarge``.
    public var pixelLimit: (width: Int, height: Int, limit: Int)? {
        if case .pixels(let width, let height, let limit) = detail { return (width, height, limit) }
        return nil
    }

    /// The format nobody can decode or encode, for ``Code/unsupportedFormat``.
    public var format: ImageFormat? {
        if case .format(let format) = detail { return format }
        return nil
    }

    // MARK: Text

    public var description: String { message }
    public var errorDescription: String? { message }
}

/// Removes the user name and password from every `scheme://user:password@host` in a text, so
/// that messages quoting a URL never repeat its credentials.
enum URLCredentialRedaction {
    static func redacted(_ text: String) -> String {
        // Most messages hold no credentials; only they pay for the scan.
        guard text.utf8.contains(UInt8(ascii: "@")), text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            // The authority ends at the first '/', '?', '#' or white space; its last '@' ends the user info.
            let authorityEnd =
                rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" || $0.isWhitespace || $0 == "'" || $0 == "\"" }
                ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }
}
