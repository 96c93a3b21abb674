import Foundation

/// The other ways to call the engine (`ImageManager+Load.swift`, which also holds the async
/// `loadImage`), each a thin adapter over ``ImageManager/load(_:options:context:events:)``.
extension ImageManager {
    /// ``loadImage(with:options:context:progress:)`` for a string; a string that is not a URL
    /// throws ``WebImageError/Code/invalidURL``.
    public func loadImage(
        with urlString: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: (@Sendable (_ receivedSize: Int, _ expectedSize: Int) -> Void)? = nil
    ) async throws(WebImageError) -> ImageManagerResult {
        guard let url = URL(string: urlString) else { throw .invalidURL(urlString) }
        return try await loadImage(with: url, options: options, context: context, progress: progress)
    }

    // MARK: Event stream

    /// Loads `url` as a stream of events: progress, partial images, the cached image of a
    /// refresh, and the final result, after which the stream ends (also after
    /// ``ImageManagerEvent/cachedImage(_:)`` when the server says the cached image is current).
    /// Ending the iteration cancels the load. Errors end the stream with a ``WebImageError``.
    public func imageEvents(
        with url: URL?, options: WebImageOptions = [], context: WebImageContext? = nil
    ) -> AsyncThrowingStream<ImageManagerEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task(priority: options.inheritedTaskPriority) {
                do throws(WebImageError) {
                    let outcome = try await load(url, options: options, context: context) { event in
                        switch event {
                        case .progress(let received, let expected):
                            continuation.yield(.progress(receivedSize: received, expectedSize: expected))
                        case .partialImage(let image): continuation.yield(.partialImage(image))
                        case .cachedImage(let result): continuation.yield(.cachedImage(result))
                        case .stage: break
                        }
                    }
                    if case .loaded(let result) = outcome { continuation.yield(.finished(result)) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { termination in
                if case .cancelled = termination { task.cancel() }
            }
        }
    }

    // MARK: SDWebImage's callback shape

    /// Loads `url` with SDWebImage's callback shape (`loadImageWithURL:options:context:progress:completed:`).
    ///
    /// `completed` receives (image, data, error, cache type, finished, URL) on the context's
    /// ``WebImageContext/callbackQueue`` (nil: the thread that produced it; give a serial queue
    /// if progress and partial images must stay in order). It runs:
    /// - with `finished == false` for each partial image of ``WebImageOptions/progressiveLoad``;
    /// - once with `finished == true` for the result or the error — a cancelled operation gets
    ///   ``WebImageError/cancelled`` and never an image;
    /// - with ``WebImageOptions/refreshCached``, **twice** with `finished == true` when the image
    ///   changed: first the cached image, then the new one (not again when the server says it is current);
    /// - with neither image nor error when the image is not cached and loading is not allowed
    ///   (``WebImageOptions/fromCacheOnly``, the delegate), as SDWebImage.
    @discardableResult
    public func loadImage(
        with url: URL?, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil, completed: @escaping ImageManagerCompletion
    ) -> CombinedOperation {
        let operation = CombinedOperation(url: url)
        let queue = context?.callbackQueue
        // Nothing reaches the caller after cancel but the cancellation itself.
        let deliver: @Sendable (_ final: Bool, @escaping @Sendable () -> Void) -> Void = { final, work in
            guard final || !operation.isCancelled else { return }
            if let queue { queue.async(execute: work) } else { work() }
        }
        let events: @Sendable (LoadEvent) -> Void = { event in
            switch event {
            case .progress(let received, let expected):
                if let progress, let url { deliver(false) { progress(received, expected, url) } }
            case .partialImage(let image):
                deliver(false) { completed(image, nil, nil, .none, false, url) }
            case .cachedImage(let result):
                deliver(false) { completed(result.image, result.data, nil, result.cacheType, true, url) }
            case .stage(let stage):
                operation.enter(stage)
            }
        }
        let report: @Sendable (Result<LoadOutcome, WebImageError>) -> Void = { outcome in
            switch outcome {
            case .success(.loaded(let result)):
                deliver(true) { completed(result.image, result.data, nil, result.cacheType, true, url) }
            case .success(.notModified):
                break
            case .failure(let error) where error.code == .notLoaded:
                deliver(true) { completed(nil, nil, nil, .none, true, url) }
            case .failure(let error):
                deliver(true) { completed(nil, nil, error, .none, true, url) }
            }
        }
        // A bad URL, a blocked one or a refused option fails before this returns.
        let prepared: PreparedLoad
        do throws(WebImageError) {
            prepared = try begin(url, options: options, context: context)
        } catch {
            _ = operation.markFinished()
            report(.failure(error))
            return operation
        }
        let id = register { operation.cancel() }
        operation.attach(
            Task(priority: options.inheritedTaskPriority) {
                var outcome: Result<LoadOutcome, WebImageError>
                do throws(WebImageError) {
                    outcome = .success(try await load(prepared, events: events, registers: false))
                } catch {
                    outcome = .failure(error)
                }
                unregister(id)
                report(operation.markFinished() ? outcome : .failure(.cancelled))
            })
        return operation
    }

    /// The callback API for a string; a string that is not a URL completes with
    /// ``WebImageError/Code/invalidURL`` before this returns.
    @discardableResult
    public func loadImage(
        with urlString: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil, completed: @escaping ImageManagerCompletion
    ) -> CombinedOperation {
        guard let url = URL(string: urlString) else {
            let operation = CombinedOperation(url: nil)
            _ = operation.markFinished()
            completed(nil, nil, .invalidURL(urlString), .none, true, nil)
            return operation
        }
        return loadImage(with: url, options: options, context: context, progress: progress, completed: completed)
    }
}
