import Foundation
import Synchronization

/// Chains loaders (SDWebImage's `SDImageLoadersManager`): the newest loader that can request a
/// URL loads it. It is itself an ``ImageLoading``, so the manager needs no special case.
public final class ImageLoadersManager: ImageLoading {
    private let registered: Locked<[any ImageLoading]>

    /// Loaders in the order they were added; the last is asked first.
    public init(loaders: [any ImageLoading]) {
        registered = Locked(loaders)
    }

    /// The loaders, oldest first (the last one is asked first).
    public var loaders: [any ImageLoading] {
        get { registered.withLock { $0 } }
        set { registered.withLock { $0 = newValue } }
    }

    /// Adds a loader that is asked before every loader already registered.
    public func addLoader(_ loader: any ImageLoading) {
        registered.withLock { $0.append(loader) }
    }

    /// Removes every registered loader of type `type`.
    public func removeLoaders<L: ImageLoading>(ofType type: L.Type) {
        registered.withLock { $0.removeAll { $0 is L } }
    }

    /// The loader that will handle `url`: the newest whose ``ImageLoading/canRequestImage(for:options:context:)`` is true.
    public func loader(
        for url: URL, options: WebImageOptions = [], context: WebImageContext? = nil
    ) -> (any ImageLoading)? {
        loaders.reversed().first { $0.canRequestImage(for: url, options: options, context: context) }
    }

    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        loader(for: url, options: options, context: context) != nil
    }

    /// Starts the load on the handling loader. When none can handle `url`, the completion gets
    /// ``WebImageError/invalidURL(_:)`` (SDWebImage returns no operation and never calls back).
    @discardableResult
    public func requestImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?,
        progress: ImageLoaderProgress?, completion: @escaping ImageLoaderCompletion
    ) -> any ImageLoadingOperation {
        if let loader = loader(for: url, options: options, context: context) {
            return loader.requestImage(
                with: url, options: options, context: context, progress: progress, completion: completion)
        }
        let token = ImageLoaderToken(url: url, progress: nil, completion: completion)
        let scheme = url.scheme.map { "'\($0):'" } ?? "a URL without a scheme"
        token.attach(
            Task.detached {
                token.deliver(.failure(.invalidURL("\(url.absoluteString) (no loader handles \(scheme))")))
            })
        return token
    }

    /// Asks the loader that handles `url`; false when none does (as SDWebImage).
    public func shouldBlockFailedURL(
        _ url: URL, error: WebImageError, options: WebImageOptions, context: WebImageContext?
    ) -> Bool {
        loader(for: url, options: options, context: context)?
            .shouldBlockFailedURL(url, error: error, options: options, context: context) ?? false
    }
}
