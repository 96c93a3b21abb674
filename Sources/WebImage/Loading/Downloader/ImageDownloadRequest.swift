import Foundation

/// The HTTP request a download sends, as request modifiers see it (SDWebImage hands them an
/// `NSURLRequest`).
public struct ImageDownloadRequest: Sendable {
    /// The URL to fetch; a modifier may point it elsewhere (only `http`/`https`).
    public var url: URL {
        didSet { knownAbsoluteString = nil }
    }
    /// `url.absoluteString` when the downloader already had it (it keys coalescing with it);
    /// changing `url` forgets it. Foundation builds that string anew on every call.
    var knownAbsoluteString: String?
    /// The method (default `GET`).
    public var method: String
    /// The headers to send: the downloader's, then the modifiers' edits.
    public var headers: ImageDownloadHeaders
    /// A body to send, if any.
    public var body: Data?
    /// The idle timeout in seconds. It can shorten the downloader's
    /// ``ImageDownloaderConfig/downloadTimeout`` for this request, not extend it.
    public var timeout: TimeInterval

    public init(
        url: URL, method: String = "GET", headers: ImageDownloadHeaders = [:], body: Data? = nil,
        timeout: TimeInterval = 15
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The HTTP response of a download, as response modifiers and ``ImageDownloadToken/response`` see it.
public struct ImageDownloadResponse: Sendable {
    /// The URL that answered, after redirects.
    public var url: URL
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers.
    public var headers: ImageDownloadHeaders

    public init(url: URL, statusCode: Int, headers: ImageDownloadHeaders = [:]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
    }

    /// The `Content-Type` without parameters, lowercased (URLResponse's `mimeType`).
    public var mimeType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first ?? ""
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The declared `Content-Length`, or -1 when absent or malformed (header values arrive
    /// trimmed, see ``ImageDownloadHeaders``).
    public var expectedContentLength: Int {
        guard let value = headers["Content-Length"], let length = Int(value),
            length >= 0
        else { return -1 }
        return length
    }
}

/// What a download measured (a small part of URLSession's task metrics).
public struct ImageDownloadMetrics: Sendable, Equatable {
    /// When the transfer started (after the queue).
    public var startDate: Date?
    /// When the last byte arrived or the transfer failed.
    public var endDate: Date?
    /// Body bytes received (after gzip/deflate decoding), over every attempt's final hop.
    public var receivedBytes = 0
    /// Redirects followed.
    public var redirectCount = 0
    /// Requests sent for the image: retries and the basic-auth round trip count.
    public var requestCount = 0

    public init() {}
}
