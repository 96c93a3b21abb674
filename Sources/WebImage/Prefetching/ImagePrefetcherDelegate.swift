import Foundation

/// Hears about every prefetch of an ``ImagePrefetcher`` (SDWebImage's `SDWebImagePrefetcherDelegate`).
///
/// Held weakly. Called on the same queue as the tokens' blocks (see ``ImagePrefetcher``), before them.
public protocol ImagePrefetcherDelegate: AnyObject, Sendable {
    /// One URL finished (loaded, failed or cancelled). The counts are summed over every running
    /// token, as SDWebImage's.
    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, finishedCount: Int, totalCount: Int)

    /// The last running token finished; the counts are that token's.
    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didFinishWithTotalCount totalCount: Int, skippedCount: Int)

    /// A URL was skipped, and why (ours: SDWebImage reports only counts).
    func imagePrefetcher(_ prefetcher: ImagePrefetcher, didSkip url: URL, error: WebImageError?)
}

extension ImagePrefetcherDelegate {
    public func imagePrefetcher(
        _ prefetcher: ImagePrefetcher, didPrefetch url: URL, finishedCount: Int, totalCount: Int
    ) {}
    public func imagePrefetcher(
        _ prefetcher: ImagePrefetcher, didFinishWithTotalCount totalCount: Int, skippedCount: Int
    ) {}
    public func imagePrefetcher(_ prefetcher: ImagePrefetcher, didSkip url: URL, error: WebImageError?) {}
}

/// What a prefetch achieved.
public struct ImagePrefetchResult: Sendable, Equatable {
    /// URLs that finished, loaded or not.
    public var finishedCount: Int
    /// URLs that failed or were cancelled (SDWebImage's skipped count).
    public var skippedCount: Int
    /// URLs requested.
    public var totalCount: Int

    public init(finishedCount: Int, skippedCount: Int, totalCount: Int) {
        self.finishedCount = finishedCount
        self.skippedCount = skippedCount
        self.totalCount = totalCount
    }
}
