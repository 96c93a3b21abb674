import Foundation

extension ImageManager {
    /// Where a load's intermediate events go.
    struct LoadSink: Sendable {
        var progress: (@Sendable (_ received: Int, _ expected: Int) -> Void)?
        var partialImage: (@Sendable (Image) -> Void)?
        /// The cached image of a ``WebImageOptions/refreshCached`` load, before revalidation.
        var cachedImage: (@Sendable (ImageManagerResult) -> Void)?
    }

    /// How a load ended.
    enum LoadOutcome: Sendable {
        case loaded(ImageManagerResult)
        /// A refresh found the cached image current: it was already delivered, nothing new follows.
        case notModified(ImageManagerResult)
    }

    /// A load after the manager's settings and the options processor have been applied.
    struct PreparedLoad: Sendable {
        var url: URL
        var options: WebImageOptions
        var context: WebImageContext
        var cache: any ImageCaching
        var loader: any ImageLoading
        var transformer: (any ImageTransforming)?
        var originalKey: String
        var fullKey: String
    }

    /// Steps 2–3 of SDWebImage's flow: put the manager's transformer, key filter and serializer
    /// into the context unless it has its own, run the options processor, check the failed list.
    func prepare(url: URL, options: WebImageOptions, context: WebImageContext?) throws(WebImageError) -> PreparedLoad {
        var context = context ?? WebImageContext()
        var options = options
        // One lock for every setting: this runs on each load, memory hits included.
        let settings = self.settingsSnapshot
        if context.imageTransformer == nil, let transformer = settings.transformer {
            context.imageTransformer = .transformer(transformer)
        }
        // Only real changes: writing to a context that shares its storage copies it.
        if context.cacheKeyFilter == nil, let filter = settings.cacheKeyFilter { context.cacheKeyFilter = filter }
        if context.cacheSerializer == nil, let serializer = settings.cacheSerializer {
            context.cacheSerializer = serializer
        }
        if let processed = settings.optionsProcessor?.processedResult(for: url, options: options, context: context) {
            options = processed.options
            context = processed.context ?? WebImageContext()
        }
        if !options.contains(.retryFailed), isFailedURL(url) {
            throw .blackListed(url.absoluteString)
        }
        // The context now holds the manager's transformer and filter, so these keys are
        // ``cacheKey(for:context:)``'s without taking the settings lock again.
        let transformer: (any ImageTransforming)? =
            switch context.imageTransformer {
            case .transformer(let transformer): transformer
            case .disabled, nil: nil
            }
        let originalKey = context.cacheKeyFilter?.cacheKey(for: url) ?? url.absoluteString
        var fullKey = originalKey
        if let size = context.imageThumbnailPixelSize, size.isPositive {
            fullKey = CacheKeys.thumbnailed(
                fullKey, size: size, preserveAspectRatio: context.imagePreserveAspectRatio ?? true)
        }
        if let transformer { fullKey = CacheKeys.transformed(fullKey, transformerKey: transformer.transformerKey) }
        return PreparedLoad(
            url: url, options: options, context: context, cache: context.imageCache ?? imageCache,
            loader: context.imageLoader ?? imageLoader, transformer: transformer, originalKey: originalKey,
            fullKey: fullKey)
    }

    /// The result of a plain memory hit, or nil when the load must take the full path: the
    /// cheap case answered without a shared run, a task or an operation.
    func memoryHit(_ load: PreparedLoad) async throws(WebImageError) -> ImageManagerResult? {
        let options = load.options
        let cacheType = load.context.queryCacheType ?? .all
        guard cacheType.includesMemory,
            options.isDisjoint(with: [.fromLoaderOnly, .refreshCached, .queryMemoryData])
        else { return nil }
        if let cache = load.cache as? ImageCache {
            // The cache's own memory lookup, without copying the context: the full key already
            // names the thumbnail.
            if Task.isCancelled { throw .cancelled }
            guard let image = cache.memoryHit(forKey: load.fullKey, options: options) else { return nil }
            return ImageManagerResult(image: image, data: nil, cacheType: .memory, url: load.url)
        }
        var context = load.context
        context.imageThumbnailPixelSize = nil
        context.imagePreserveAspectRatio = nil
        let cached = try await query(
            load.cache, key: load.fullKey, options: options, context: context, cacheType: .memory)
        guard let image = cached.image else { return nil }
        return ImageManagerResult(image: image, data: cached.data, cacheType: cached.cacheType, url: load.url)
    }

    /// The engine behind both API styles: cache, original cache, loader, transform, store.
    func run(_ load: PreparedLoad, operation: CombinedOperation, sink: LoadSink) async throws(WebImageError)
        -> LoadOutcome
    {
        var context = load.context
        let options = load.options
        var cached = ImageCacheQueryResult.miss
        if !options.contains(.fromLoaderOnly) {
            // The full key already names the thumbnail: decoding its entry again at a
            // thumbnail size would shrink a transformed image.
            var queryContext = context
            queryContext.imageThumbnailPixelSize = nil
            queryContext.imagePreserveAspectRatio = nil
            // A refresh needs the stored validators and bytes even on a memory hit, so it can
            // ask the server for changes only (SDWebImage gets them from URLCache).
            let queryOptions = options.contains(.refreshCached) ? options.union(.queryMemoryData) : options
            cached = try await query(
                load.cache, key: load.fullKey, options: queryOptions, context: queryContext,
                cacheType: context.queryCacheType ?? .all)
            if cached.image == nil, load.fullKey != load.originalKey,
                let original = try await queryOriginal(load),
                let originalImage = original.image
            {
                // Transform the cached original instead of downloading; refreshCached does not apply here.
                return .loaded(
                    try await finish(
                        load, image: originalImage, data: original.data, metadata: original.metadata,
                        cacheType: original.cacheType))
            }
        }
        if let image = cached.image {
            let result = ImageManagerResult(image: image, data: cached.data, cacheType: cached.cacheType, url: load.url)
            guard options.contains(.refreshCached), shouldLoad(load) else { return .loaded(result) }
            sink.cachedImage?(result)
            context.loaderCachedImage = image
            context.loaderCachedMetadata = cached.metadata
            context.loaderCachedData = cached.data
            do {
                return try await loadAndFinish(load, context: context, operation: operation, sink: sink)
            } catch .cacheNotModified {
                return .notModified(result)
            }
        }
        guard !options.contains(.fromCacheOnly) else { throw .notLoaded("\(load.url.absoluteString) (fromCacheOnly)") }
        guard delegate?.imageManager(self, shouldDownloadImageFor: load.url) ?? true else {
            throw .notLoaded("\(load.url.absoluteString) (the delegate declined)")
        }
        guard load.loader.canRequestImage(for: load.url, options: options, context: context) else {
            throw .notLoaded("\(load.url.absoluteString) (no loader handles it)")
        }
        return try await loadAndFinish(load, context: context, operation: operation, sink: sink)
    }

    private func shouldLoad(_ load: PreparedLoad) -> Bool {
        !load.options.contains(.fromCacheOnly)
            && (delegate?.imageManager(self, shouldDownloadImageFor: load.url) ?? true)
            && load.loader.canRequestImage(for: load.url, options: load.options, context: load.context)
    }

    func query(
        _ cache: any ImageCaching, key: String, options: WebImageOptions, context: WebImageContext,
        cacheType: ImageCacheType
    ) async throws(WebImageError) -> ImageCacheQueryResult {
        guard cacheType != .none else { return .miss }
        do {
            return try await cache.queryImage(forKey: key, options: options, context: context, cacheType: cacheType)
        } catch let error as WebImageError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// The untransformed original, from the original cache (step 4's second query).
    private func queryOriginal(_ load: PreparedLoad) async throws(WebImageError) -> ImageCacheQueryResult? {
        let cacheType = load.context.originalQueryCacheType ?? .disk
        guard cacheType != .none else { return nil }
        let cache = load.context.originalImageCache ?? load.cache
        let result = try await query(
            cache, key: load.originalKey, options: load.options, context: load.context, cacheType: cacheType)
        return result.image == nil ? nil : result
    }

    private func loadAndFinish(
        _ load: PreparedLoad, context: WebImageContext, operation: CombinedOperation, sink: LoadSink
    ) async throws(WebImageError) -> LoadOutcome {
        let loaded: ImageLoadResult
        do {
            loaded = try await callLoader(load, context: context, operation: operation, sink: sink)
        } catch {
            if error == .cancelled || operation.isCancelled { throw .cancelled }
            if error != .cacheNotModified, shouldBlock(load, error: error, context: context) {
                addFailedURL(load.url)
            }
            throw error
        }
        if load.options.contains(.retryFailed) { removeFailedURL(load.url) }
        var image = loaded.image
        if let delegate { image = delegate.imageManager(self, transformDownloadedImage: image, for: load.url) }
        return .loaded(
            try await finish(load, image: image, data: loaded.data, metadata: loaded.metadata, cacheType: .none))
    }

    private func shouldBlock(_ load: PreparedLoad, error: WebImageError, context: WebImageContext) -> Bool {
        if let decision = delegate?.imageManager(self, shouldBlockFailedURL: load.url, error: error) {
            return decision
        }
        return load.loader.shouldBlockFailedURL(load.url, error: error, options: load.options, context: context)
    }

    /// Runs the loader, forwarding progress and partial images, until its final result.
    private func callLoader(
        _ load: PreparedLoad, context: WebImageContext, operation: CombinedOperation, sink: LoadSink
    ) async throws(WebImageError) -> ImageLoadResult {
        telemetry.loaderStarted(url: load.url)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<ImageLoadResult, WebImageError>, Never>) in
                let loaderOperation = load.loader.requestImage(
                    with: load.url, options: load.options, context: context,
                    progress: { received, expected, _ in sink.progress?(received, expected) },
                    completion: { result in
                        if case .success(let value) = result, !value.isFinished {
                            sink.partialImage?(value.image)
                            return
                        }
                        continuation.resume(returning: result)
                    })
                operation.setLoaderOperation(loaderOperation)
            }
        } onCancel: {
            operation.cancel()
        }
        operation.setLoaderOperation(nil)
        telemetry.loaderEnded(url: load.url, result: result)
        return try result.get()
    }
}
