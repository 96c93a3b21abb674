import Foundation

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

    /// Loads with the handling loader. When none can handle `url`, throws
    /// ``WebImageError/Code/invalidURL`` (SDWebImage returns no operation and never calls back).
    public func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        guard let loader = loader(for: url, options: options, context: context) else {
            let scheme = url.scheme.map { "'\($0):'" } ?? "a URL without a scheme"
            throw .invalidURL("\(url.absoluteString) (no loader handles \(scheme))")
        }
        return try await loader.loadImage(with: url, options: options, context: context, events: events)
    }

    /// Asks the loader that handles `url`; false when none does (as SDWebImage).
    public func shouldBlockFailedURL(
        _ url: URL, error: WebImageError, options: WebImageOptions, context: WebImageContext?
    ) -> Bool {
        loader(for: url, options: options, context: context)?
            .shouldBlockFailedURL(url, error: error, options: options, context: context) ?? false
    }
}

extension ImageLoadersManager {
    /// The built-in loaders for remote and inline images: ``ImageDownloader/shared`` (oldest) and
    /// ``DataURLImageLoader``, so `http`, `https` and `data` URLs load and every other scheme
    /// fails with ``WebImageError/invalidURL(_:)``.
    ///
    /// `file:` URLs are opt-in, unlike SDWebImage: a server that loads URLs its users send must
    /// not read its own files for them. Add ``FileImageLoader`` to this manager
    /// (`ImageLoadersManager.shared.addLoader(FileImageLoader())`), or give a manager a loaders
    /// manager that includes it, where local files are wanted.
    public static let shared = ImageLoadersManager(loaders: [ImageDownloader.shared, DataURLImageLoader()])
}
