import Foundation

/// Loads images ahead of need so they are cached when asked for (SDWebImage's `SDWebImagePrefetcher`).
///
/// Every URL goes through ``manager`` (cache query, download, decode, store), at most
/// ``maxConcurrentPrefetchCount`` at a time across **all** tokens of this prefetcher, in the
/// order asked for. A new call never cancels an earlier one.
///
/// **Where blocks run.** A token's `progress` and `completed` blocks and the delegate run on the
/// context's ``WebImageContext/callbackQueue`` when given (use a serial queue: counts arrive in
/// order only then), else on this prefetcher's own serial queue — never on the caller's
/// thread, except `completed(0, 0)` for an empty list, which runs before the call returns.
public final class ImagePrefetcher: Sendable {
    private struct State {
        var tokens: [ObjectIdentifier: ImagePrefetchToken] = [:]
        weak var delegate: (any ImagePrefetcherDelegate)?
    }

    /// The shared prefetcher; it has its own ``ImageManager`` over the default cache and loader.
    public static let shared = ImagePrefetcher(manager: ImageManager())

    /// The manager every prefetch goes through.
    public let manager: ImageManager
    private let state = Locked(State())
    /// The loads waiting for one of the slots, first in first out across every token.
    private let queue = SlotQueue(slots: 3)
    private let serialQueue = DispatchQueue(label: "swift-web-image.prefetcher")

    /// A prefetcher loading through `manager`.
    public init(manager: ImageManager) {
        self.manager = manager
    }

    /// Loads running at once over every token (default 3); values below 1 mean 1. Raising it
    /// starts queued loads at once; lowering it lets running loads finish.
    public var maxConcurrentPrefetchCount: Int {
        get { queue.slots }
        set { queue.slots = newValue }
    }

    /// Hears about every URL and the end of the last running token; held weakly.
    public var delegate: (any ImagePrefetcherDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// Tokens that have not finished or been cancelled.
    public var runningTokenCount: Int { state.withLock { $0.tokens.count } }

    /// Prefetches `urls` (SDWebImage's `prefetchURLs:options:context:progress:completed:`).
    ///
    /// `progress(finished, total)` runs after each URL ends; `completed(finished, skipped)` once
    /// all have, where skipped counts failed and cancelled URLs (a URL that is not cached under
    /// ``WebImageOptions/fromCacheOnly`` ends without an error and is not skipped, as in SDWebImage).
    /// An empty list calls `completed(0, 0)` at once and returns nil.
    @discardableResult
    public func prefetchURLs(
        _ urls: [URL], options: WebImageOptions = [.lowPriority], context: WebImageContext? = nil,
        progress: (@Sendable (_ finishedCount: Int, _ totalCount: Int) -> Void)? = nil,
        completed: (@Sendable (_ finishedCount: Int, _ skippedCount: Int) -> Void)? = nil
    ) -> ImagePrefetchToken? {
        guard !urls.isEmpty else {
            completed?(0, 0)
            return nil
        }
        // The manager calls back on its own threads; this prefetcher hops to the queue itself.
        var managerContext = context
        managerContext?.callbackQueue = nil
        let token = ImagePrefetchToken(
            urls: urls, options: options, context: managerContext,
            callbackQueue: context?.callbackQueue ?? serialQueue, prefetcher: self, progress: progress,
            completed: completed)
        let jobs = urls.indices.map { PrefetchJob(token: token, index: $0) }
        token.state.withLock { $0.jobs = jobs }
        state.withLock { $0.tokens[ObjectIdentifier(token)] = token }
        let runPriority = options.inheritedTaskPriority
        for job in jobs {
            job.queued(queue.enqueue(priority: .normal, runPriority: runPriority) { [self] _ in await run(job) })
        }
        return token
    }

    /// Cancels every token (SDWebImage's `cancelPrefetching`).
    public func cancelPrefetching() {
        let tokens = state.withLock { Array($0.tokens.values) }
        for token in tokens { cancel(token) }
    }

    func cancel(_ token: ImagePrefetchToken) {
        let jobs = state.withLock { state -> [PrefetchJob]? in
            state.tokens[ObjectIdentifier(token)] = nil
            return token.markCancelled()
        }
        // Queued jobs leave the line; running ones free their slots when the manager reports
        // the cancellation.
        for job in jobs ?? [] { job.cancel(leaving: queue) }
    }

    /// Loads one URL in a slot of the queue, which it keeps until the load ends.
    private func run(_ job: PrefetchJob) async {
        guard !job.token.isCancelled else { return }
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<WebImageError?, Never>) in
            let operation = manager.loadImage(
                with: job.url, options: job.token.options, context: job.token.context
            ) { _, _, error, _, finished, _ in
                guard finished, job.end() else { return }
                continuation.resume(returning: error)
            }
            job.attach(operation)
        }
        ended(job, error: error)
    }

    private func ended(_ job: PrefetchJob, error: WebImageError?) {
        let token = job.token
        let url = job.url
        state.withLock { state in
            let counts = token.state.withLock { tokenState -> (Int, Int, Bool)? in
                guard !tokenState.cancelled else { return nil }
                tokenState.finished += 1
                if error != nil { tokenState.skipped += 1 }
                let done = tokenState.finished == token.urls.count
                // Each job holds its token: a finished token lets go of its jobs, or the pair
                // (and through them this prefetcher and its manager) would never be freed.
                if done { tokenState.jobs = [] }
                return (tokenState.finished, tokenState.skipped, done)
            }
            guard let (finished, skipped, done) = counts else { return }
            var summedFinished = 0
            var summedTotal = 0
            for running in state.tokens.values {
                summedFinished += running === token ? finished : running.finishedCount
                summedTotal += running.urls.count
            }
            var isLast = false
            if done {
                state.tokens[ObjectIdentifier(token)] = nil
                isLast = state.tokens.isEmpty
            }
            let delegate = state.delegate
            // Enqueued under the lock, so a serial queue sees the counts in the order they were made.
            token.callbackQueue.async { [self, summedFinished, summedTotal, isLast] in
                delegate?.imagePrefetcher(
                    self, didPrefetch: url, finishedCount: summedFinished, totalCount: summedTotal)
                if error != nil { delegate?.imagePrefetcher(self, didSkip: url, error: error) }
                let blocks = token.state.withLock { $0.cancelled ? nil : ($0.progress, $0.completed) }
                guard let (progress, completed) = blocks else { return }
                progress?(finished, token.urls.count)
                guard done else { return }
                if isLast {
                    delegate?.imagePrefetcher(self, didFinishWithTotalCount: token.urls.count, skippedCount: skipped)
                }
                completed?(finished, skipped)
                token.state.withLock {
                    $0.progress = nil
                    $0.completed = nil
                }
            }
        }
    }
}
