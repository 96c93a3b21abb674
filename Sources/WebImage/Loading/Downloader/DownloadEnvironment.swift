import AsyncHTTPClient
import Foundation

/// What a transfer needs from its downloader, captured when it leaves the queue.
struct DownloadEnvironment: Sendable {
    let client: HTTPClient
    let config: ImageDownloaderConfig
    let headers: ImageDownloadHeaders
    let headersFilter: ImageDownloadHeadersFilter?
    let requestModifier: (any ImageDownloadRequestModifying)?
    let responseModifier: (any ImageDownloadResponseModifying)?
    let decryptor: (any ImageDownloadDecrypting)?
    let cookieStore: ImageDownloadCookieStore
    let events: DownloadEventBroadcaster
}

/// The body of a successful exchange and the response it came with.
struct DownloadedBody: Sendable {
    var data: Data
    var response: ImageDownloadResponse
}

/// A failed attempt, with the `Retry-After` the server sent, for the retry policy.
struct AttemptFailure: Error {
    var error: WebImageError
    var retryAfter: String?
}
