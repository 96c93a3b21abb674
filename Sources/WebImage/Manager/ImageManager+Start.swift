import Foundation
import Synchronization

extension ImageManager {
    /// Starts a load in its own task and reports its outcome exactly once: the result, the
    /// error, or ``WebImageError/cancelled`` when the operation was cancelled first.
    func start(
        url: URL?, options: WebImageOptions, context: WebImageContext?, sink: LoadSink,
        outcome deliver: @escaping @Sendable (Result<LoadOutcome, WebImageError>) -> Void
    ) -> CombinedOperation {
        let key = Locked<String?>(nil)
        let report: @Sendable (Result<LoadOutcome, WebImageError>) -> Void = { [telemetry] outcome in
            telemetry.loadEnded(url: url, key: key.withLock { $0 }, outcome: outcome)
            deliver(outcome)
        }
        let operation = CombinedOperation(url: url)
        guard let url, !url.absoluteString.isEmpty else {
            _ = operation.markFinished()
            report(.failure(.invalidURL(url?.absoluteString ?? "")))
            return operation
        }
        let load: PreparedLoad
        do {
            load = try prepare(url: url, options: options, context: context)
        } catch {
            _ = operation.markFinished()
            report(.failure(error))
            return operation
        }
        key.withLock { $0 = load.fullKey }
        register(operation)
        // Events of a cancelled operation are dropped: nothing reaches the caller after cancel
        // but the cancellation itself.
        let guarded = LoadSink(
            progress: { received, expected in
                if !operation.isCancelled { sink.progress?(received, expected) }
            },
            partialImage: { image in
                if !operation.isCancelled { sink.partialImage?(image) }
            },
            cachedImage: { result in
                if !operation.isCancelled { sink.cachedImage?(result) }
            })
        let task = Task.detached(priority: options.taskPriority) { [self] in
            let outcome: Result<LoadOutcome, WebImageError>
            do throws(WebImageError) {
                outcome = .success(try await coalescedRun(load, operation: operation, sink: guarded))
            } catch {
                outcome = .failure(error)
            }
            unregister(operation)
            report(operation.markFinished() ? outcome : .failure(.cancelled))
        }
        operation.attach(task)
        return operation
    }
}
