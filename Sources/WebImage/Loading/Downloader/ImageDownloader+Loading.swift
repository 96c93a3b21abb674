import Foundation

extension ImageDownloader: ImageLoading {
    /// `http` and `https` URLs.
    public func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Downloads with the ``ImageDownloaderOptions`` that SDWebImage derives from `options` and
    /// whether the context carries a ``WebImageContext/loaderCachedImage``.
    public func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        let downloaderOptions = ImageDownloaderOptions(options, hasCachedImage: context?.loaderCachedImage != nil)
        return try await downloadImage(with: url, options: downloaderOptions, context: context, events: events)
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
