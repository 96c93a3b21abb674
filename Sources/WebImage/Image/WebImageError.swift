import Foundation

/// The one error type every layer of WebImage throws.
///
/// The first nine cases mirror `SDWebImageError` and keep its numeric ``code``; the rest are
/// ours (SDWebImage has no typed equivalent and reports them as generic failures).
public enum WebImageError: Error, Sendable, Equatable {
    /// The URL is missing, empty or not a URL (SDWebImage 1000).
    case invalidURL(String)
    /// The bytes cannot be decoded: empty, corrupt, truncated or 0×0 (SDWebImage 1001).
    case badImageData(String)
    /// The server answered 304 and the cached copy is current (SDWebImage 1002).
    case cacheNotModified
    /// The URL failed before and is on the failed-URL list (SDWebImage 1003).
    case blackListed(String)
    /// No download could be started for the request (SDWebImage 2000).
    case invalidDownloadOperation(String)
    /// The server answered with a status outside the acceptable set (SDWebImage 2001).
    case invalidDownloadStatusCode(Int)
    /// The operation was cancelled (SDWebImage 2002).
    case cancelled
    /// The response modifier rejected the response (SDWebImage 2003).
    case invalidDownloadResponse
    /// The response's content type is not acceptable (SDWebImage 2004).
    case invalidDownloadContentType(String?)
    /// The image's pixel count exceeds the decode limit; checked before any pixel is allocated.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// No registered coder decodes or encodes this format.
    case unsupportedFormat(ImageFormat)
    /// Encoding failed inside a codec.
    case encodingFailed(String)
    /// A parameter is out of range (zero sizes, NaN, an empty crop, ...).
    case invalidArgument(String)
    /// The disk cache could not write or read its files (a full disk, a vanished or read-only
    /// directory). Nothing already stored is lost.
    case diskCacheFailure(String)
    /// The transfer failed below HTTP: cannot connect, connection lost, timeout, TLS, redirect
    /// loop, size limit, missing file (SDWebImage passes the `NSURLError` through).
    case transferFailed(TransferFailure)
    /// The image is not cached and loading it was not allowed: ``WebImageOptions/fromCacheOnly``,
    /// the manager's delegate, or no loader handles the URL. SDWebImage reports this as a
    /// completion with neither image nor error; so does the callback API.
    case notLoaded(String)

    /// SDWebImage's numeric code for the shared cases; 3000 and up for ours.
    public var code: Int {
        switch self {
        case .invalidURL: 1000
        case .badImageData: 1001
        case .cacheNotModified: 1002
        case .blackListed: 1003
        case .invalidDownloadOperation: 2000
        case .invalidDownloadStatusCode: 2001
        case .cancelled: 2002
        case .invalidDownloadResponse: 2003
        case .invalidDownloadContentType: 2004
        case .imageTooLarge: 3000
        case .unsupportedFormat: 3001
        case .encodingFailed: 3002
        case .invalidArgument: 3003
        case .diskCacheFailure: 3004
        case .transferFailed: 3005
        case .notLoaded: 3006
        }
    }
}

extension WebImageError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .invalidURL(let url): "invalid URL: \(url.isEmpty ? "(empty)" : "'\(url)'")"
        case .badImageData(let reason): "bad image data: \(reason)"
        case .cacheNotModified: "the cached image is current (HTTP 304 Not Modified)"
        case .blackListed(let url): "the URL failed before and is blocked: \(url) (use the retryFailed option)"
        case .invalidDownloadOperation(let reason): "the download could not start: \(reason)"
        case .invalidDownloadStatusCode(let code): "unacceptable HTTP status code \(code)"
        case .cancelled: "the operation was cancelled"
        case .invalidDownloadResponse: "the response modifier rejected the response"
        case .invalidDownloadContentType(let type): "unacceptable content type \(type.map { "'\($0)'" } ?? "(none)")"
        case .imageTooLarge(let width, let height, let limit):
            "image too large: \(width)×\(height) pixels exceeds the limit of \(limit) pixels"
        case .unsupportedFormat(let format): "unsupported image format: \(format.name)"
        case .encodingFailed(let reason): "encoding failed: \(reason)"
        case .invalidArgument(let reason): "invalid argument: \(reason)"
        case .diskCacheFailure(let reason): "disk cache failure: \(reason)"
        case .transferFailed(let failure): "transfer failed: \(failure)"
        case .notLoaded(let reason): "not in the cache, and not loaded: \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
