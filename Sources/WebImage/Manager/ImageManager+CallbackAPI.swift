import Foundation

extension ImageManager {
    /// Loads `url` with SDWebImage's callback shape (`loadImageWithURL:options:context:progress:completed:`).
    ///
    /// `completed` receives (image, data, error, cache type, finished, URL) on the context's
    /// ``WebImageContext/callbackQueue`` (nil: the thread that produced it; give a serial queue
    /// if progress and partial images must stay in order). It runs:
    /// - with `finished == false` for each partial image of ``WebImageOptions/progressiveLoad``;
    /// - once with `finished == true` for the result or the error — a cancelled operation gets
    ///   ``WebImageError/cancelled`` and never an image;
    /// - with ``WebImageOptions/refreshCached``, **twice** with `finished == true` when the image
    ///   changed: first the cached image, then the new one (not again when the server says it is current);
    /// - with neither image nor error when the image is not cached and loading is not allowed
    ///   (``WebImageOptions/fromCacheOnly``, the delegate), as SDWebImage.
    @discardableResult
    public func loadImage(
        with url: URL?, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil, completed: @escaping ImageManagerCompletion
    ) -> CombinedOperation {
        let queue = context?.callbackQueue
        let deliver: @Sendable (@escaping @Sendable () -> Void) -> Void = { work in
            if let queue { queue.async(execute: work) } else { work() }
        }
        var forwardProgress: (@Sendable (Int, Int) -> Void)?
        if let progress, let url {
            forwardProgress = { received, expected in deliver { progress(received, expected, url) } }
        }
        let sink = LoadSink(
            progress: forwardProgress,
            partialImage: { image in deliver { completed(image, nil, nil, .none, false, url) } },
            cachedImage: { result in
                deliver { completed(result.image, result.data, nil, result.cacheType, true, url) }
            })
        return start(url: url, options: options, context: context, sink: sink) { outcome in
            switch outcome {
            case .success(.loaded(let result)):
                deliver { completed(result.image, result.data, nil, result.cacheType, true, url) }
            case .success(.notModified):
                break
            case .failure(let error) where error.code == .notLoaded:
                deliver { completed(nil, nil, nil, .none, true, url) }
            case .failure(let error):
                deliver { completed(nil, nil, error, .none, true, url) }
            }
        }
    }

    /// The callback API for a string; a string that is not a URL completes with ``WebImageError/invalidURL(_:)``.
    @discardableResult
    public func loadImage(
        with urlString: String, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: ImageLoaderProgress? = nil, completed: @escaping ImageManagerCompletion
    ) -> CombinedOperation {
        guard let url = URL(string: urlString) else {
            let operation = CombinedOperation(url: nil)
            _ = operation.markFinished()
            completed(nil, nil, .invalidURL(urlString), .none, true, nil)
            return operation
        }
        return loadImage(with: url, options: options, context: context, progress: progress, completed: completed)
    }
}
