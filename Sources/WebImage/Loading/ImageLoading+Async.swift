import Foundation
import Synchronization

/// What an ``ImageLoading`` load reports, as an event stream.
public enum ImageLoadEvent: Sendable {
    /// Bytes received so far and the expected total (-1 when unknown).
    case progress(receivedSize: Int, expectedSize: Int)
    /// A partial image of progressive loading.
    case partialImage(Image)
    /// The final result; the stream ends after it.
    case finished(ImageLoadResult)
}

extension ImageLoading {
    /// Loads `url` and returns the final result. Cancelling the calling task cancels the load
    /// (and throws ``WebImageError/cancelled``). Partial images are not reported; use
    /// ``imageLoadEvents(with:options:context:)`` for those.
    public func loadImage(
        with url: URL, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil
    ) async throws(WebImageError) -> ImageLoadResult {
        // One lock for both fields, so a cancel racing the start is seen by one side or the other.
        let state = Locked<(operation: (any ImageLoadingOperation)?, cancelled: Bool)>((nil, false))
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<ImageLoadResult, WebImageError>, Never>) in
                let started = requestImage(with: url, options: options, context: context, progress: progress) {
                    result in
                    if case .success(let value) = result, !value.isFinished { return }
                    continuation.resume(returning: result)
                }
                let cancelled = state.withLock { state in
                    state.operation = started
                    return state.cancelled
                }
                if cancelled { started.cancel() }
            }
        } onCancel: {
            let operation = state.withLock { state in
                state.cancelled = true
                return state.operation
            }
            operation?.cancel()
        }
        return try result.get()
    }

    /// Loads `url` as a stream of progress, partial images and the final result. Ending the
    /// iteration (or cancelling its task) cancels the load; an error ends the stream with a
    /// ``WebImageError``.
    public func imageLoadEvents(
        with url: URL, options: WebImageOptions = [], context: WebImageContext? = nil
    ) -> AsyncThrowingStream<ImageLoadEvent, any Error> {
        AsyncThrowingStream { continuation in
            let operation = requestImage(
                with: url, options: options, context: context,
                progress: { received, expected, _ in
                    continuation.yield(.progress(receivedSize: received, expectedSize: expected))
                },
                completion: { result in
                    switch result {
                    case .success(let value) where !value.isFinished:
                        continuation.yield(.partialImage(value.image))
                    case .success(let value):
                        continuation.yield(.finished(value))
                        continuation.finish()
                    case .failure(let error):
                        continuation.finish(throwing: error)
                    }
                })
            continuation.onTermination = { termination in
                if case .cancelled = termination { operation.cancel() }
            }
        }
    }
}
