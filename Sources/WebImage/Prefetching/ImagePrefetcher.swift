import Foundation
import Synchronization

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
        var maxConcurrent = 3
        /// Jobs waiting for a slot, FIFO from `head`.
        var queue: [PrefetchJob] = []
        var head = 0
        var running = 0
        var tokens: [ObjectIdentifier: ImagePrefetchToken] = [:]
        weak var delegate: (any ImagePrefetcherDelegate)?
    }

    /// The shared prefetcher; it has its own ``ImageManager`` over the default cache and loader.
    public static let shared = ImagePrefetcher(manager: ImageManager())

    /// The manager every prefetch goes through.
    public let manager: ImageManager
    private let state = Locked(State())
    private let serialQueue = DispatchQueue(label: "swift-web-image.prefetcher")

    /// A prefetcher loading through `manager`.
    public init(manager: ImageManager) {
        self.manager = manager
    }

    /// Loads running at once over every token (default 3); values below 1 mean 1. Raising it
    /// starts queued loads at once; lowering it lets running loads finish.
    public var maxConcurrentPrefetchCount: Int {
        get { state.withLock { $0.maxConcurrent } }
        set {
            state.withLock { $0.maxConcurrent = max(newValue, 1) }
            pump()
        }
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
        state.withLock { state in
            state.tokens[ObjectIdentifier(token)] = token
            for index in urls.indices { state.queue.append(PrefetchJob(token: token, index: index)) }
        }
        pump()
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
        // Their slots free up when the manager reports the cancellation.
        for job in jobs ?? [] { job.cancel() }
    }

    /// Starts queued jobs while slots are free.
    private func pump() {
        let jobs = state.withLock { state -> [PrefetchJob] in
            var started: [PrefetchJob] = []
            while state.running < state.maxConcurrent, state.head < state.queue.count {
                let job = state.queue[state.head]
                state.head += 1
                let live = job.token.state.withLock { tokenState in
                    guard !tokenState.cancelled else { return false }
                    tokenState.running[job.index] = job
                    return true
                }
                guard live else { continue }
                state.running += 1
                started.append(job)
            }
            // Drop the consumed prefix once it dominates, so a long queue costs O(n) overall.
            if state.head > 64, state.head * 2 > state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return started
        }
        for job in jobs { start(job) }
    }

    private func start(_ job: PrefetchJob) {
        let operation = manager.loadImage(
            with: job.url, options: job.token.options, context: job.token.context
        ) { [self] _, _, error, _, finished, _ in
            guard finished, job.end() else { return }
            ended(job, error: error)
        }
        job.attach(operation)
    }

    private func ended(_ job: PrefetchJob, error: WebImageError?) {
        let token = job.token
        let url = job.url
        state.withLock { state in
            state.running -= 1
            let counts = token.state.withLock { tokenState -> (Int, Int, Bool)? in
                tokenState.running[job.index] = nil
                guard !tokenState.cancelled else { return nil }
                tokenState.finished += 1
                if error != nil { tokenState.skipped += 1 }
                return (tokenState.finished, tokenState.skipped, tokenState.finished == token.urls.count)
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
        pump()
    }
}
