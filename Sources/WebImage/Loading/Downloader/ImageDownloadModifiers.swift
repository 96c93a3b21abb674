import Foundation

/// Edits a request before it is sent (SDWebImage's `SDWebImageDownloaderRequestModifier`).
/// Returning nil cancels the download with ``WebImageError/invalidDownloadOperation(_:)`` (2000).
public protocol ImageDownloadRequestModifying: Sendable {
    func modifiedRequest(_ request: ImageDownloadRequest) async -> ImageDownloadRequest?
}

/// A request modifier from a closure, or from a method, headers and body.
public struct ImageDownloadRequestModifier: ImageDownloadRequestModifying {
    private let block: @Sendable (ImageDownloadRequest) async -> ImageDownloadRequest?

    public init(_ block: @escaping @Sendable (ImageDownloadRequest) async -> ImageDownloadRequest?) {
        self.block = block
    }

    /// Sets the method, adds `headers` (replacing same-named ones) and sets `body` when given.
    public init(method: String = "GET", headers: ImageDownloadHeaders? = nil, body: Data? = nil) {
        block = { request in
            var request = request
            request.method = method
            for (name, value) in headers?.fields ?? [] { request.headers[name] = value }
            if let body { request.body = body }
            return request
        }
    }

    public func modifiedRequest(_ request: ImageDownloadRequest) async -> ImageDownloadRequest? {
        await block(request)
    }
}

/// Edits a response before it is checked (SDWebImage's `SDWebImageDownloaderResponseModifier`).
/// Returning nil fails the download with ``WebImageError/invalidDownloadResponse`` (2003).
public protocol ImageDownloadResponseModifying: Sendable {
    func modifiedResponse(_ response: ImageDownloadResponse) async -> ImageDownloadResponse?
}

/// A response modifier from a closure, or from a status code and headers.
public struct ImageDownloadResponseModifier: ImageDownloadResponseModifying {
    private let block: @Sendable (ImageDownloadResponse) async -> ImageDownloadResponse?

    public init(_ block: @escaping @Sendable (ImageDownloadResponse) async -> ImageDownloadResponse?) {
        self.block = block
    }

    /// Replaces the status (default 200) and adds `headers` (replacing same-named ones).
    public init(statusCode: Int = 200, headers: ImageDownloadHeaders? = nil) {
        block = { response in
            var response = response
            response.statusCode = statusCode
            for (name, value) in headers?.fields ?? [] { response.headers[name] = value }
            return response
        }
    }

    public func modifiedResponse(_ response: ImageDownloadResponse) async -> ImageDownloadResponse? {
        await block(response)
    }
}

/// SDWebImage 4's `headersFilter`, the request modifier's ancestor: the headers to send for a URL,
/// or nil to refuse the download (``WebImageError/invalidDownloadOperation(_:)``). It runs
/// before the request modifier.
public typealias ImageDownloadHeadersFilter = @Sendable (URL, ImageDownloadHeaders) -> ImageDownloadHeaders?

/// A per-request callback with the response head as soon as it arrives (before the body).
public typealias ImageDownloadResponseHandler = @Sendable (ImageDownloadResponse) -> Void
