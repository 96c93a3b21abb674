import Foundation

/// Progress of one load in SDWebImage's callback shape: bytes received so far, the expected
/// total (-1 when unknown), and the URL.
public typealias ImageLoaderProgress = @Sendable (_ receivedSize: Int, _ expectedSize: Int, _ url: URL) -> Void

/// The completion of one load in SDWebImage's callback shape. It runs zero or more times with
/// partial results (`isFinished == false`), then exactly once with a final result or an error —
/// including ``WebImageError/cancelled`` when the operation is cancelled. It never runs after that.
public typealias ImageLoaderCompletion = @Sendable (Result<ImageLoadResult, WebImageError>) -> Void

/// A running load that can be cancelled (SDWebImage's `SDWebImageOperation`).
public protocol ImageLoadingOperation: AnyObject, Sendable {
    /// Ends this caller's load with ``WebImageError/cancelled``. Idempotent. Other callers sharing
    /// the same work are not affected.
    func cancel()
    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { get }
}

extension ImageLoading {
    /// SDWebImage's callback shape over ``loadImage(with:options:context:events:)``
    /// (`requestImageWithURL:options:context:progress:completed:`): the load runs in a task of
    /// its own, and cancelling the returned operation cancels that task and calls `completion`
    /// with ``WebImageError/cancelled`` at once.
    @discardableResult
    public func requestImage(
        with url: URL, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil, completion: @escaping ImageLoaderCompletion
    ) -> any ImageLoadingOperation {
        let operation = CallbackLoad(completion: completion)
        let events: ImageLoadEventHandler = { event in
            switch event {
            case .progress(let received, let expected):
                if !operation.isCancelled { progress?(received, expected, url) }
            case .partialImage(let image):
                operation.deliver(.success(ImageLoadResult(image: image, data: nil, isFinished: false)))
            }
        }
        operation.attach(
            Task(priority: options.inheritedTaskPriority) {
                do throws(WebImageError) {
                    var result = try await loadImage(with: url, options: options, context: context, events: events)
                    result.isFinished = true
                    operation.deliver(.success(result))
                } catch {
                    operation.deliver(.failure(error))
                }
            })
        return operation
    }

    /// SDWebImage's spelling, which takes an optional URL and four completion arguments.
    @available(
        *, unavailable,
        message: "implement loadImage(with:options:context:events:) in a loader; call requestImage(with:…completion:)"
    )
    public func requestImage(
        with url: URL?, options: WebImageOptions, context: WebImageContext?, progress: ImageLoaderProgress?,
        completed: (@Sendable (Image?, Data?, WebImageError?, Bool) -> Void)?
    ) -> (any ImageLoadingOperation)? {
        fatalError("unavailable")
    }
}

/// One callback-shaped load: its task, and a completion that runs its terminal call once.
final class CallbackLoad: ImageLoadingOperation {
    private let callback: CallbackTask<Result<ImageLoadResult, WebImageError>>

    init(completion: @escaping ImageLoaderCompletion) {
        callback = CallbackTask(completion: completion)
    }

    var isCancelled: Bool { callback.isCancelled }

    func cancel() {
        callback.cancel(reporting: .failure(.cancelled))
    }

    func attach(_ task: Task<Void, Never>) {
        callback.attach(task)
    }

    /// A partial result, or the terminal one (a failure or a finished result) once.
    func deliver(_ result: Result<ImageLoadResult, WebImageError>) {
        callback.deliver(result, isTerminal: (try? result.get())?.isFinished ?? true)
    }
}
