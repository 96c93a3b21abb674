import Foundation

/// A running cache query of the callback API (`SDImageCacheToken`). ``cancel()`` completes it at
/// once with a miss; its completion runs exactly once either way.
public final class ImageCacheToken: Sendable {
    public typealias Completion = @Sendable (Image?, Data?, ImageCacheType) -> Void

    private struct State: ~Copyable {
        var completion: Completion?
        var task: Task<Void, Never>?
        var cancelled = false
    }

    /// Everything mutable sits behind this lock; the completion is taken out once.
    private let state: Locked<State>

    init(completion: @escaping Completion) {
        state = Locked(State(completion: completion))
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Stops the query and calls the completion with `(nil, nil, .none)` on this thread, unless
    /// it already ran. Later results are dropped.
    public func cancel() {
        let (completion, task) = state.withLock { state in
            state.cancelled = true
            let taken = (state.completion, state.task)
            state.completion = nil
            state.task = nil
            return taken
        }
        task?.cancel()
        completion?(nil, nil, .none)
    }

    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.task = task }
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func finish(_ result: ImageCacheQueryResult) {
        let completion = state.withLock { state in
            let taken = state.completion
            state.completion = nil
            state.task = nil
            return taken
        }
        completion?(result.image, result.data, result.cacheType)
    }
}

extension ImageCache {
    /// The callback form of ``queryImage(forKey:options:context:cacheType:)``
    /// (`queryCacheOperationForKey:options:context:cacheType:done:`).
    ///
    /// A memory hit without ``WebImageOptions/queryMemoryData`` (and an empty key, or `.none`)
    /// completes before this returns, and the result is nil. Otherwise the completion runs
    /// later on a background thread, and the returned token can cancel it.
    @discardableResult
    public func queryCacheOperation(
        forKey key: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        cacheType: ImageCacheType = .all, completion: @escaping ImageCacheToken.Completion
    ) -> ImageCacheToken? {
        guard !key.isEmpty, cacheType != .none else {
            completion(nil, nil, .none)
            return nil
        }
        if cacheType != .disk, !options.contains(.queryMemoryData),
            let image = memoryHit(forKey: Self.memoryKey(forKey: key, context: context), options: options)
        {
            completion(image, nil, .memory)
            return nil
        }
        let token = ImageCacheToken(completion: completion)
        let task = Task { [self] in
            let result = (try? await queryImage(forKey: key, options: options, context: context, cacheType: cacheType))
            token.finish(result ?? .miss)
        }
        token.attach(task)
        return token
    }
}
