import Foundation

extension ImageDownloader: ImageLoading {
    /// `http` and `https` URLs.
    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Downloads with the ``ImageDownloaderOptions`` that SDWebImage derives from `options` and
    /// whether the context carries a ``WebImageContext/loaderCachedImage``.
    @discardableResult
    public func requestImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?,
        progress: ImageLoaderProgress?, completion: @escaping ImageLoaderCompletion
    ) -> any ImageLoadingOperation {
        let downloaderOptions = ImageDownloaderOptions(options, hasCachedImage: context?.loaderCachedImage != nil)
        return enqueue(url, options: downloaderOptions, context: context, progress: progress, completion: completion)
    }
}

extension ImageLoadersManager {
    /// The built-in loaders: ``ImageDownloader/shared`` (oldest), ``FileImageLoader`` and
    /// ``DataURLImageLoader``; they handle disjoint schemes.
    public static let shared = ImageLoadersManager(loaders: [
        ImageDownloader.shared, FileImageLoader(), DataURLImageLoader(),
    ])
}
