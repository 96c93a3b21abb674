import Foundation

/// A running cache query of the callback API (`SDImageCacheToken`). ``cancel()`` completes it at
/// once with a miss; its completion runs exactly once either way.
public final class ImageCacheToken: Sendable {
    public typealias Completion = @Sendable (Image?, Data?, ImageCacheType) -> Void

    private let callback: CallbackTask<ImageCacheQueryResult>

    init(completion: @escaping Completion) {
        callback = CallbackTask { result in completion(result.image, result.data, result.cacheType) }
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { callback.isCancelled }

    /// Stops the query and calls the completion with `(nil, nil, .none)` on this thread, unless
    /// it already ran. Later results are dropped.
    public func cancel() {
        callback.cancel(reporting: .miss)
    }

    func attach(_ task: Task<Void, Never>) {
        callback.attach(task)
    }

    func finish(_ result: ImageCacheQueryResult) {
        callback.deliver(result)
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
