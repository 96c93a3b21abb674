import Foundation
import WebImage

extension WebImageTarget {
    /// Loads `url` through ``imageManager`` and shows it (SDWebImage's `sd_setImageWithURL:…`).
    ///
    /// In order, for the operation key (the context's `WebImageContext/setImageOperationKey`,
    /// else the type's name, written back into the context):
    /// 1. cancels the key's previous load, unless `WebImageOptions/avoidAutoCancelImage`;
    /// 2. records a fresh ``WebImageLoadState``;
    /// 3. shows `placeholder` (nil clears the image), unless `WebImageOptions/delayPlaceholder`,
    ///    which shows it only if the load fails;
    /// 4. starts the indicator and the load; partial images are shown as they arrive;
    /// 5. shows the image — unless `WebImageOptions/avoidAutoSetImage`, which leaves that to
    ///    `completed` (then called for partial images too) — through the ``imageTransition``
    ///    when it applies, and calls `completed`.
    ///
    /// A nil or empty URL shows the placeholder and completes with `WebImageError/invalidURL(_:)`.
    /// Only the key's latest load ever shows an image: an older one, even if not cancelled
    /// (`WebImageOptions/avoidAutoCancelImage`), calls `completed` but shows nothing. All
    /// display and blocks run on the binding queue (see ``WebImageTarget``).
    public func setImage(
        with url: URL?, placeholder: Image? = nil, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil, completed: WebImageTargetCompletion? = nil
    ) {
        var context = context ?? WebImageContext()
        let key = context.setImageOperationKey ?? String(describing: type(of: self))
        context.setImageOperationKey = key
        let queue = context.callbackQueue ?? imageCallbackQueue
        // The manager calls back on its own threads; the binding hops to `queue` itself.
        context.callbackQueue = nil
        let binding = TargetLoad(
            target: self, key: key, url: url, placeholder: placeholder, options: options, queue: queue,
            progress: progress, completed: completed)
        binding.start(manager: imageManager, context: context)
    }

    /// ``setImage(with:placeholder:options:context:progress:completed:)`` for a string; a string
    /// that is not a URL shows the placeholder and completes with `WebImageError/invalidURL(_:)`.
    public func setImage(
        with urlString: String, placeholder: Image? = nil, options: WebImageOptions = [],
        context: WebImageContext? = nil, progress: ImageLoaderProgress? = nil,
        completed: WebImageTargetCompletion? = nil
    ) {
        let url = URL(string: urlString)
        var completion = completed
        if url == nil, let completed {
            // Name the string the caller gave, not the empty URL the binding sees.
            completion = { _, _, cacheType, _ in completed(nil, .invalidURL(urlString), cacheType, nil) }
        }
        setImage(
            with: url, placeholder: placeholder, options: options, context: context, progress: progress,
            completed: completion)
    }

    /// Cancels the load of the latest operation key used (SDWebImage's `sd_cancelLatestImageLoad`);
    /// it shows nothing more, and its completion receives `WebImageError/cancelled`.
    public func cancelCurrentImageLoad() {
        guard let key = WebImageTargetRegistry.shared.entry(of: self)?.latestKey else { return }
        cancelImageLoad(forKey: key)
    }

    /// Cancels the load for `key` (nil: the type's name), as ``cancelCurrentImageLoad()``.
    public func cancelImageLoad(forKey key: String?) {
        let key = key ?? String(describing: type(of: self))
        WebImageTargetRegistry.shared.removeLoad(self, key: key)?.cancel()
    }

    /// The URL of the latest operation key's load (SDWebImage's `sd_imageURL`).
    public var currentImageURL: URL? {
        let entry = WebImageTargetRegistry.shared.entry(of: self)
        return entry?.latestKey.flatMap { entry?.keys[$0]?.loadState.url }
    }

    /// The load state for `key` (nil: the type's name) (SDWebImage's `sd_imageLoadStateForKey:`).
    public func imageLoadState(forKey key: String? = nil) -> WebImageLoadState? {
        WebImageTargetRegistry.shared.entry(of: self)?.keys[key ?? String(describing: type(of: self))]?.loadState
    }

    /// Shown while loading (SDWebImage's `sd_imageIndicator`).
    public var imageIndicator: (any WebImageIndicator)? {
        get { WebImageTargetRegistry.shared.entry(of: self)?.indicator }
        set { WebImageTargetRegistry.shared.withEntry(self) { $0.indicator = newValue } }
    }

    /// How loaded images appear (SDWebImage's `sd_imageTransition`).
    public var imageTransition: WebImageTransition? {
        get { WebImageTargetRegistry.shared.entry(of: self)?.transition }
        set { WebImageTargetRegistry.shared.withEntry(self) { $0.transition = newValue } }
    }
}
