import Foundation

/// The start of a body: what a header reader needs, and no more when the transfer was not needed
/// whole by anyone else.
package struct DownloadedPrefix: Sendable {
    /// The bytes received when the prefix sufficed, or the whole body.
    package var data: Data
    /// The body's length as the response declared it (`Content-Length`), when it did and no
    /// content coding changes it.
    package var declaredLength: Int?
    /// Whether ``data`` is the whole body (the transfer ended before the prefix sufficed).
    package var isComplete: Bool
    /// What a cache keeps of the response's headers; only for a complete body.
    package var metadata: DiskCacheMetadata?

    package init(data: Data, declaredLength: Int? = nil, isComplete: Bool, metadata: DiskCacheMetadata?) {
        self.data = data
        self.declaredLength = declaredLength
        self.isComplete = isComplete
        self.metadata = metadata
    }
}

extension ImageDownloader {
    /// The start of `url`'s body, up to the first growth of it that `suffices` accepts. The
    /// transfer is shared with every other caller of the URL as usual; this caller leaves it as
    /// soon as the prefix suffices, which stops it when nobody else wants it. When the body ends
    /// first, the whole body comes back (``DownloadedPrefix/isComplete``). `suffices` runs on the
    /// transfer's thread as bytes arrive, at doubling sizes: keep it cheap.
    package func downloadPrefix(
        with url: URL, options: ImageDownloaderOptions = [], context: WebImageContext? = nil,
        suffices: @escaping @Sendable (Data) -> Bool
    ) async throws(WebImageError) -> DownloadedPrefix {
        if Task.isCancelled { throw .cancelled }
        try checkNotShutdown()
        struct State {
            var prefix: Data?
            var declared = -1
            var subscription: Transfers.Subscription?
        }
        let state = Locked(State())
        let key = TransferKey(url, options: options, context: context)
        let subscription = subscribeTransfer(
            key, url: url, options: options, context: context, rank: options.rank, runPriority: options.runPriority,
            events: { event in
                switch event {
                case .progress(_, let expected):
                    state.withLock { $0.declared = expected }
                case .bytes(let data):
                    guard suffices(data) else { return }
                    let leaving = state.withLock { state -> Transfers.Subscription? in
                        guard state.prefix == nil else { return nil }
                        state.prefix = data
                        return state.subscription
                    }
                    leaving?.cancel()
                default:
                    break
                }
            })
        // The prefix may have sufficed before the subscription was known to the handler.
        if state.withLock({ state in
            state.subscription = subscription
            return state.prefix != nil
        }) {
            subscription.cancel()
        }
        // The subscription's event handler holds `state`: letting go of the subscription here
        // breaks that cycle, which would otherwise keep both (and the prefix) forever.
        defer { state.withLock { $0.subscription = nil } }
        let declared = { () -> Int? in
            let value = state.withLock { $0.declared }
            return value >= 0 ? value : nil
        }
        do {
            let body = try await subscription.value()
            return DownloadedPrefix(
                data: body.data, declaredLength: declared(), isComplete: true, metadata: body.metadata)
        } catch .cancelled {
            guard let prefix = state.withLock({ $0.prefix }) else { throw .cancelled }
            return DownloadedPrefix(data: prefix, declaredLength: declared(), isComplete: false, metadata: nil)
        } catch {
            throw error
        }
    }
}
