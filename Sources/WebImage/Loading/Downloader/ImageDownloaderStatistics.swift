import Synchronization

/// What a downloader sent and received over its lifetime (ours; SDWebImage has per-task metrics only).
public struct ImageDownloaderStatistics: Sendable, Equatable {
    /// HTTP requests sent: redirects, retries and authentication round trips each count.
    public var requestCount: Int
    /// Body bytes of completed transfers (after gzip/deflate decoding).
    public var receivedBytes: Int

    public init(requestCount: Int = 0, receivedBytes: Int = 0) {
        self.requestCount = requestCount
        self.receivedBytes = receivedBytes
    }
}

/// The downloader-wide counters behind ``ImageDownloader/statistics``.
final class DownloadStatisticsCounter: Sendable {
    private let requests = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)

    func countRequest() { requests.wrappingAdd(1, ordering: .relaxed) }
    func countBytes(_ count: Int) { bytes.wrappingAdd(count, ordering: .relaxed) }

    var snapshot: ImageDownloaderStatistics {
        ImageDownloaderStatistics(
            requestCount: requests.load(ordering: .relaxed), receivedBytes: bytes.load(ordering: .relaxed))
    }
}
