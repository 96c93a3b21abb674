import Foundation

extension ImageManager {
    /// Loads `url` and returns one result. With ``WebImageOptions/refreshCached`` the result is
    /// the freshest image: the revalidated one, or the cached one if the server says it is
    /// current (use ``imageEvents(with:options:context:)`` to see both). Cancelling the calling
    /// task cancels the load and throws ``WebImageError/cancelled``. The load runs at the calling
    /// task's priority unless ``WebImageOptions/highPriority`` or ``WebImageOptions/lowPriority``
    /// says otherwise; loads that join it keep the first caller's.
    ///
    /// Throws ``WebImageError/invalidURL(_:)`` for a nil or empty URL,
    /// ``WebImageError/blackListed(_:)`` for a URL on the failed list (unless
    /// ``WebImageOptions/retryFailed``), ``WebImageError/notLoaded(_:)`` when the image is not
    /// cached and loading is not allowed, and the loader's and transformer's errors.
    public func loadImage(
        with url: URL?, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: (@Sendable (_ receivedSize: Int, _ expectedSize: Int) -> Void)? = nil
    ) async throws(WebImageError) -> ImageManagerResult {
        let outcome: LoadOutcome
        var key: String?
        do throws(WebImageError) {
            guard let url, !url.absoluteString.isEmpty else { throw .invalidURL(url?.absoluteString ?? "") }
            let load = try prepare(url: url, options: options, context: context)
            key = load.fullKey
            if let hit = try await memoryHit(load) {
                telemetry.memoryHit(url: url, key: load.fullKey)
                return hit
            }
            let operation = CombinedOperation(url: url)
            register(operation)
            defer { unregister(operation) }
            outcome = try await coalescedRun(load, operation: operation, sink: LoadSink(progress: progress))
        } catch {
            telemetry.loadEnded(url: url, key: key, outcome: .failure(error))
            throw error
        }
        telemetry.loadEnded(url: url, key: key, outcome: .success(outcome))
        switch outcome {
        case .loaded(let result), .notModified(let result): return result
        }
    }

    /// ``loadImage(with:options:context:progress:)`` for a string; a string that is not a URL
    /// throws ``WebImageError/invalidURL(_:)``.
    public func loadImage(
        with urlString: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: (@Sendable (_ receivedSize: Int, _ expectedSize: Int) -> Void)? = nil
    ) async throws(WebImageError) -> ImageManagerResult {
        guard let url = URL(string: urlString) else { throw .invalidURL(urlString) }
        return try await loadImage(with: url, options: options, context: context, progress: progress)
    }

    /// Loads `url` as a stream of events: progress, partial images, the cached image of a
    /// refresh, and the final result, after which the stream ends (also after
    /// ``ImageManagerEvent/cachedImage(_:)`` when the server says the cached image is current).
    /// Ending the iteration cancels the load. Errors end the stream with a ``WebImageError``.
    public func imageEvents(
        with url: URL?, options: WebImageOptions = [], context: WebImageContext? = nil
    ) -> AsyncThrowingStream<ImageManagerEvent, any Error> {
        AsyncThrowingStream { continuation in
            let sink = LoadSink(
                progress: { received, expected in
                    continuation.yield(.progress(receivedSize: received, expectedSize: expected))
                },
                partialImage: { continuation.yield(.partialImage($0)) },
                cachedImage: { continuation.yield(.cachedImage($0)) })
            let operation = start(url: url, options: options, context: context, sink: sink) { outcome in
                switch outcome {
                case .success(.loaded(let result)):
                    continuation.yield(.finished(result))
                    continuation.finish()
                case .success(.notModified):
                    continuation.finish()
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { termination in
                if case .cancelled = termination { operation.cancel() }
            }
        }
    }
}
