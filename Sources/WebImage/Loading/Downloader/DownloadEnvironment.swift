import AsyncHTTPClient
import Foundation

/// What a transfer needs from its downloader, captured when it leaves the queue. A class:
/// transfers pass it around a lot, and one reference is cheaper to copy than nine.
final class DownloadEnvironment: Sendable {
    let client: HTTPClient
    /// Clients for hosts a request validator pinned to an address.
    let pinnedClients: PinnedClients
    let config: ImageDownloaderConfig
    let headers: ImageDownloadHeaders
    let headersFilter: ImageDownloadHeadersFilter?
    let requestModifier: (any ImageDownloadRequestModifying)?
    let responseModifier: (any ImageDownloadResponseModifying)?
    let decryptor: (any ImageDownloadDecrypting)?
    let cookieStore: ImageDownloadCookieStore
    let events: DownloadEventBroadcaster
    let idleTimeouts: IdleTimeouts
    let statistics: DownloadStatisticsCounter

    init(
        client: HTTPClient, pinnedClients: PinnedClients, config: ImageDownloaderConfig, headers: ImageDownloadHeaders,
        headersFilter: ImageDownloadHeadersFilter?, requestModifier: (any ImageDownloadRequestModifying)?,
        responseModifier: (any ImageDownloadResponseModifying)?, decryptor: (any ImageDownloadDecrypting)?,
        cookieStore: ImageDownloadCookieStore, events: DownloadEventBroadcaster, idleTimeouts: IdleTimeouts,
        statistics: DownloadStatisticsCounter
    ) {
        self.client = client
        self.pinnedClients = pinnedClients
        self.config = config
        self.headers = headers
        self.headersFilter = headersFilter
        self.requestModifier = requestModifier
        self.responseModifier = responseModifier
        self.decryptor = decryptor
        self.cookieStore = cookieStore
        self.events = events
        self.idleTimeouts = idleTimeouts
        self.statistics = statistics
    }
}

/// A failed attempt, with the `Retry-After` the server sent, for the retry policy.
struct AttemptFailure: Error {
    var error: WebImageError
    var retryAfter: String?
    /// The downloader's idle timeout interrupted the attempt (by cancelling its task).
    var isIdleTimeout = false
}
