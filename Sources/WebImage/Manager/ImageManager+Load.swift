import Foundation

/// How a load runs, from the call to the result. Every API style — `try await loadImage`, the
/// ``imageEvents(with:options:context:)`` stream and SDWebImage's callback shape — is a thin
/// adapter over ``load(_:options:context:events:)``.
///
///     prepare           the manager's transformer, key filter and serializer; the options
///        │              processor; the failed-URL list; the full and the original cache key
///        ▼
///     memory ─────────── hit ──▶ result          (on the caller, no task)
///        │ miss
///        ▼
///     shared load       one task per LoadKey (`loads`, an InFlightTable): concurrent loads
///        │              that need the same result wait for the same run
///        ▼
///     disk, full key ─── hit ──▶ result          (refreshCached: hand it out, then revalidate ▼)
///        │ miss
///     disk, original ─── hit ──▶ transform ──▶ store ──▶ result
///        │ miss
///        ▼
///     loader            download and decode (`ImageLoading`); failures may join the failed list
///        │
///        ▼
///     transform ──▶ store (memory now, disk in the background) ──▶ result
///
/// The numbered steps of SDWebImage's `loadImageWithURL` map onto this: 1 prepare, 2–3 the
/// settings and the failed list, 4 the cache queries, 5–6 the loader, 7–9 transform and store.
extension ImageManager {
    /// What a load reports before its result.
    enum LoadEvent: Sendable {
        case progress(received: Int, expected: Int)
        case partialImage(Image)
        /// The cached image of a ``WebImageOptions/refreshCached`` load, before revalidation.
        case cachedImage(ImageManagerResult)
        /// The shared run moved on to `stage` (a load starts in ``LoadStage/cache``). A load that
        /// joins a running one hears its stage first (the table's status).
        case stage(LoadStage)
    }

    /// Where a load stands, for ``CombinedOperation/cacheOperation`` and
    /// ``CombinedOperation/loaderOperation``; it only moves forward.
    enum LoadStage: Int, Comparable, Sendable {
        /// Looking in the caches: memory, disk, the original's cache.
        case cache
        /// Waiting for the loader; the transform and the store follow.
        case loader

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
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
        /// The untransformed, full-size original's key: the key filter's, or the URL.
        var originalKey: String
        /// The result's key: the original's, plus the thumbnail and transformer keys.
        var fullKey: String
    }

    // MARK: The entry point

    /// Loads `url` and returns one result. With ``WebImageOptions/refreshCached`` the result is
    /// the freshest image: the revalidated one, or the cached one if the server says it is current
    /// (use ``imageEvents(with:options:context:)`` to see both). Cancelling the calling task
    /// cancels the load and throws ``WebImageError/cancelled``. The load runs at the calling
    /// task's priority unless ``WebImageOptions/highPriority`` or ``WebImageOptions/lowPriority``
    /// says otherwise; a load that joins a running one raises it to its own priority.
    ///
    /// Throws ``WebImageError/Code/invalidURL`` for a nil or empty URL, ``WebImageError/Code/blackListed``
    /// for a URL on the failed list (unless ``WebImageOptions/retryFailed``),
    /// ``WebImageError/Code/notLoaded`` when the image is not cached and loading is not allowed,
    /// and the loader's and transformer's errors.
    public func loadImage(
        with url: URL?, options: WebImageOptions = [], context: WebImageContext? = nil,
        progress: (@Sendable (_ receivedSize: Int, _ expectedSize: Int) -> Void)? = nil
    ) async throws(WebImageError) -> ImageManagerResult {
        var events: (@Sendable (LoadEvent) -> Void)?
        if let progress {
            events = { event in
                if case .progress(let received, let expected) = event { progress(received, expected) }
            }
        }
        switch try await load(url, options: options, context: context, events: events) {
        case .loaded(let result), .notModified(let result): return result
        }
    }

    // MARK: The load

    /// The engine behind every API style: prepare, memory, then the shared load.
    func load(
        _ url: URL?, options: WebImageOptions, context: WebImageContext?,
        events: (@Sendable (LoadEvent) -> Void)?
    ) async throws(WebImageError) -> LoadOutcome {
        try await load(try begin(url, options: options, context: context), events: events, registers: true)
    }

    /// Checks the URL and prepares the load; a failure here is counted as a load that ended.
    func begin(_ url: URL?, options: WebImageOptions, context: WebImageContext?) throws(WebImageError) -> PreparedLoad {
        do throws(WebImageError) {
            guard let url, !url.absoluteString.isEmpty else { throw .invalidURL(url?.absoluteString ?? "") }
            return try prepare(url: url, options: options, context: context)
        } catch {
            telemetry.loadEnded(url: url, key: nil, outcome: .failure(error))
            throw error
        }
    }

    /// Memory, then the shared load. With `registers`, the load counts for ``isRunning`` and
    /// ``cancelAll()`` from the moment it waits for the shared run (the callback API registers
    /// its operation itself, from the call on).
    func load(_ load: PreparedLoad, events: (@Sendable (LoadEvent) -> Void)?, registers: Bool)
        async throws(WebImageError) -> LoadOutcome
    {
        do throws(WebImageError) {
            if let hit = try await memoryStage(load) {
                telemetry.memoryHit(url: load.url, key: load.fullKey)
                return .loaded(hit)
            }
            let outcome = try await sharedStage(load, events: events, registers: registers)
            telemetry.loadEnded(url: load.url, key: load.fullKey, outcome: .success(outcome))
            return outcome
        } catch {
            telemetry.loadEnded(url: load.url, key: load.fullKey, outcome: .failure(error))
            throw error
        }
    }

    /// Puts the manager's transformer, key filter and serializer into the context unless it has
    /// its own, runs the options processor, checks the failed list, and works out the keys.
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
        if !options.contains(.retryFailed), isFailedURL(url) { throw .blackListed(url.absoluteString) }
        let transformer: (any ImageTransforming)? =
            if case .transformer(let transformer) = context.imageTransformer { transformer } else { nil }
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

    /// The result of a plain memory hit, or nil when the load must go on: the cheap case,
    /// answered without a task, a shared load or a registration.
    func memoryStage(_ load: PreparedLoad) async throws(WebImageError) -> ImageManagerResult? {
        let cacheType = load.context.queryCacheType ?? .all
        guard cacheType.includesMemory,
            load.options.isDisjoint(with: [.fromLoaderOnly, .refreshCached, .queryMemoryData])
        else { return nil }
        if Task.isCancelled { throw .cancelled }
        if let cache = load.cache as? ImageCache {
            // The full key already names the thumbnail: no context to copy.
            guard let image = cache.memoryHit(forKey: load.fullKey, options: load.options) else { return nil }
            return ImageManagerResult(image: image, data: nil, cacheType: .memory, url: load.url)
        }
        let cached = try await query(load.cache, key: load.fullKey, load: load, cacheType: .memory)
        return cached.image.map {
            ImageManagerResult(image: $0, data: cached.data, cacheType: cached.cacheType, url: load.url)
        }
    }

    /// Joins the run of every concurrent load with the same ``LoadKey`` (or starts it), and
    /// waits for its outcome. The run is cancelled when its last load leaves; ``cancelAll()``
    /// makes this load leave.
    private func sharedStage(_ load: PreparedLoad, events: (@Sendable (LoadEvent) -> Void)?, registers: Bool)
        async throws(WebImageError) -> LoadOutcome
    {
        if Task.isCancelled { throw .cancelled }
        let subscription = loads.subscribe(
            LoadKey(load), priority: load.options.inheritedTaskPriority, events: events
        ) { [self] work in
            work.run { [self] work throws(WebImageError) in
                try await run(load) { event in
                    if case .stage = event { work.setStatus(event) } else { work.send(event) }
                }
            }
        }
        if subscription.joinedRunningWork { telemetry.loadJoined(url: load.url, key: load.fullKey) }
        guard registers else { return try await subscription.value() }
        let id = register { subscription.cancel() }
        defer { unregister(id) }
        return try await subscription.value()
    }

    /// The shared run: the caches, then the loader.
    private func run(_ load: PreparedLoad, sending send: @escaping @Sendable (LoadEvent) -> Void)
        async throws(WebImageError) -> LoadOutcome
    {
        let options = load.options
        var cached = ImageCacheQueryResult.miss
        if !options.contains(.fromLoaderOnly) {
            cached = try await diskStage(load)
            if cached.image == nil, let original = try await originalStage(load), let image = original.image {
                // Transform the cached original instead of downloading; refreshCached does not apply here.
                return .loaded(
                    try await finishStage(
                        load, image: image, data: original.data, metadata: original.metadata,
                        cacheType: original.cacheType))
            }
        }
        if let image = cached.image {
            let result = ImageManagerResult(image: image, data: cached.data, cacheType: cached.cacheType, url: load.url)
            guard options.contains(.refreshCached), mayLoad(load) else { return .loaded(result) }
            // Hand out the cached image, then ask the server whether it changed.
            send(.cachedImage(result))
            var context = load.context
            context.loaderCachedImage = image
            context.loaderCachedMetadata = cached.metadata
            context.loaderCachedData = cached.data
            do {
                return .loaded(try await loaderStage(load, context: context, send: send))
            } catch .cacheNotModified {
                return .notModified(result)
            }
        }
        guard !options.contains(.fromCacheOnly) else { throw .notLoaded("\(load.url.absoluteString) (fromCacheOnly)") }
        guard delegate?.imageManager(self, shouldDownloadImageFor: load.url) ?? true else {
            throw .notLoaded("\(load.url.absoluteString) (the delegate declined)")
        }
        guard load.loader.canRequestImage(for: load.url, options: options, context: load.context) else {
            throw .notLoaded("\(load.url.absoluteString) (no loader handles it)")
        }
        return .loaded(try await loaderStage(load, context: load.context, send: send))
    }

    private func mayLoad(_ load: PreparedLoad) -> Bool {
        !load.options.contains(.fromCacheOnly)
            && (delegate?.imageManager(self, shouldDownloadImageFor: load.url) ?? true)
            && load.loader.canRequestImage(for: load.url, options: load.options, context: load.context)
    }

    // MARK: Stages

    /// The cache, under the full key. A refresh needs the stored validators and bytes even on a
    /// memory hit, so it can ask the server for changes only (SDWebImage gets them from URLCache).
    private func diskStage(_ load: PreparedLoad) async throws(WebImageError) -> ImageCacheQueryResult {
        let options = load.options.contains(.refreshCached) ? load.options.union(.queryMemoryData) : load.options
        return try await query(
            load.cache, key: load.fullKey, load: load, options: options,
            cacheType: load.context.queryCacheType ?? .all)
    }

    /// The untransformed original under its own key (by default on disk only), when the load
    /// transforms or makes a thumbnail: it can be transformed instead of downloaded again.
    private func originalStage(_ load: PreparedLoad) async throws(WebImageError) -> ImageCacheQueryResult? {
        guard load.fullKey != load.originalKey else { return nil }
        let cacheType = load.context.originalQueryCacheType ?? .disk
        guard cacheType != .none else { return nil }
        let result = try await query(
            load.context.originalImageCache ?? load.cache, key: load.originalKey, load: load, keepsThumbnail: true,
            cacheType: cacheType)
        return result.image == nil ? nil : result
    }

    /// The loader, then SDWebImage 4's delegate hook, then ``finishStage(_:image:data:metadata:cacheType:)``.
    /// A failure the loader (or the delegate) calls permanent puts the URL on the failed list.
    private func loaderStage(
        _ load: PreparedLoad, context: WebImageContext, send: @escaping @Sendable (LoadEvent) -> Void
    ) async throws(WebImageError) -> ImageManagerResult {
        send(.stage(.loader))
        telemetry.loaderStarted(url: load.url)
        let loaded: ImageLoadResult
        do {
            loaded = try await load.loader.loadImage(with: load.url, options: load.options, context: context) {
                switch $0 {
                case .progress(let received, let expected): send(.progress(received: received, expected: expected))
                case .partialImage(let image): send(.partialImage(image))
                }
            }
            telemetry.loaderEnded(url: load.url, result: .success(loaded))
        } catch {
            telemetry.loaderEnded(url: load.url, result: .failure(error))
            if Task.isCancelled { throw .cancelled }
            if error != .cacheNotModified, error != .cancelled, shouldBlock(load, error: error, context: context) {
                addFailedURL(load.url)
            }
            throw error
        }
        if load.options.contains(.retryFailed) { removeFailedURL(load.url) }
        var image = loaded.image
        if let delegate { image = delegate.imageManager(self, transformDownloadedImage: image, for: load.url) }
        return try await finishStage(load, image: image, data: loaded.data, metadata: loaded.metadata, cacheType: .none)
    }

    private func shouldBlock(_ load: PreparedLoad, error: WebImageError, context: WebImageContext) -> Bool {
        if let decision = delegate?.imageManager(self, shouldBlockFailedURL: load.url, error: error) { return decision }
        return load.loader.shouldBlockFailedURL(load.url, error: error, options: load.options, context: context)
    }

    /// Transforms an image from the loader or the original cache, stores the original and the
    /// result, and builds the result. A transformer that throws fails the load with its error
    /// (SDWebImage falls back to the untransformed image, which it then caches under the
    /// transformed key).
    private func finishStage(
        _ load: PreparedLoad, image original: Image, data: Data?, metadata: DiskCacheMetadata?,
        cacheType: ImageCacheType
    ) async throws(WebImageError) -> ImageManagerResult {
        let options = load.options
        var image = original
        if let transformer = load.transformer, !original.isAnimated || options.contains(.transformAnimatedImage) {
            if Task.isCancelled { throw .cancelled }
            let (key, animated) = (load.originalKey, options.contains(.transformAnimatedImage))
            // On the CPU threads: a transform never holds a thread the network and timers need.
            image = try await ThreadPoolExecutor.cpu.run { () throws(WebImageError) in
                try Self.transform(original, with: transformer, key: key, animated: animated)
            }
        }
        let derived = image.isTransformed || image.isThumbnail
        var stores: [CacheStore] = []
        if load.fullKey != load.originalKey {
            stores.append(.original(of: load, image: original, data: data, metadata: metadata, cameFrom: cacheType))
        }
        if cacheType == .none || load.fullKey != load.originalKey {
            stores.append(.result(of: load, image: image, data: derived ? nil : data, metadata: metadata))
        }
        await storeStage(stores, waits: options.contains(.waitStoreCache))
        return ImageManagerResult(image: image, data: derived ? nil : data, cacheType: cacheType, url: load.url)
    }

    /// Memory now, as SDWebImage: a load that starts once this one has ended must hit it rather
    /// than download again. The disk (encoding, serializer, write) follows in the background,
    /// unless the load waits for it (``WebImageOptions/waitStoreCache``). A failed store is
    /// logged, never thrown: it costs a later miss, never this load's result.
    private func storeStage(_ stores: [CacheStore], waits: Bool) async {
        if waits {
            for store in stores { await store.run(.all, telemetry: telemetry) }
        } else {
            for store in stores { await store.run(.memory, telemetry: telemetry) }
            for store in stores { store.startDisk(telemetry: telemetry) }
        }
    }

    /// Applies `transformer`: to a still image, or frame by frame to an animation when
    /// `animated` (durations and loop count kept).
    static func transform(_ image: Image, with transformer: any ImageTransforming, key: String, animated: Bool)
        throws(WebImageError) -> Image
    {
        var result = try transformer.transformedImage(image, forKey: key, animated: animated)
        // As SDWebImage: the source's metadata, unless the transformer opts out and keeps its own.
        if transformer.preservesImageMetadata { result = result.copyingMetadata(from: image) }
        result.isTransformed = true
        return result
    }

    /// A cache query for this load. The full key already names the thumbnail, so the query
    /// must not shrink its entry again; only the original's query keeps the thumbnail size, to
    /// decode the original at that size.
    private func query(
        _ cache: any ImageCaching, key: String, load: PreparedLoad, options: WebImageOptions? = nil,
        keepsThumbnail: Bool = false, cacheType: ImageCacheType
    ) async throws(WebImageError) -> ImageCacheQueryResult {
        guard cacheType != .none else { return .miss }
        var context = load.context
        if !keepsThumbnail {
            context.imageThumbnailPixelSize = nil
            context.imagePreserveAspectRatio = nil
        }
        return try await cache.queryImage(
            forKey: key, options: options ?? load.options, context: context, cacheType: cacheType)
    }
}

// MARK: The shared load's key

/// What a shared load is filed under in the manager's ``ImageManager/loads``: loads with equal
/// keys wait for one run. A load that may not share gets a key of its own.
enum LoadKey: Hashable, Sendable {
    case shared(LoadCoalescingKey)
    case unshared(UnsharedID)

    init(_ load: ImageManager.PreparedLoad) {
        self = LoadCoalescingKey(load).map { .shared($0) } ?? .unshared(.next())
    }
}

/// What makes two loads interchangeable: the same full key, options, decode and encode
/// options, caches, loader, coder and serializer. The transformer and the key filter are
/// compared through the full key, which names them (SDWebImage's contract: equal keys, equal
/// results).
///
/// Loads are never coalesced when their context holds something whose identity cannot be
/// compared, because sharing would silently apply one caller's choice to another: request
/// and response modifiers, a decryptor, a response handler (it must see its own response),
/// custom keys, a coder or serializer that is not a class instance. Nor are
/// ``WebImageOptions/refreshCached`` loads, which deliver twice.
struct LoadCoalescingKey: Hashable, Sendable {
    let fullKey: String
    let options: UInt
    let decodeOptions: ImageDecodeOptions
    let encodeOptions: ImageEncodeOptions?
    let objects: [ObjectIdentifier?]
    let cacheTypes: [ImageCacheType?]

    init?(_ load: ImageManager.PreparedLoad) {
        let context = load.context
        guard !load.options.contains(.refreshCached), context.custom.isEmpty, context.loaderCachedImage == nil,
            context.downloadRequestModifier == nil, context.downloadResponseModifier == nil,
            context.downloadDecryptor == nil, context.downloadResponseHandler == nil,
            let cache = ObjectIdentifier(instance: load.cache), let loader = ObjectIdentifier(instance: load.loader),
            let original = Self.optionalIdentity(context.originalImageCache),
            let coder = Self.optionalIdentity(context.imageCoder),
            let serializer = Self.optionalIdentity(context.cacheSerializer)
        else { return nil }
        fullKey = load.fullKey
        options = load.options.rawValue
        decodeOptions = ImageDecodeOptions(context: context, options: load.options, cacheKey: load.fullKey)
        encodeOptions = context.imageEncodeOptions
        objects = [cache, loader, original, coder, serializer]
        cacheTypes = [
            context.queryCacheType, context.storeCacheType, context.originalQueryCacheType,
            context.originalStoreCacheType,
        ]
    }

    /// `.some(nil)` for no value, `.some(id)` for a class instance, nil (cannot compare) otherwise.
    private static func optionalIdentity(_ value: Any?) -> ObjectIdentifier?? {
        guard let value else { return .some(nil) }
        return ObjectIdentifier(instance: value).map { .some($0) }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fullKey)
        hasher.combine(options)
    }
}

// MARK: The store stage

extension ImageManager {
    /// One cache write a load makes (its original or its result), runnable in parts: memory now,
    /// disk now or later.
    struct CacheStore: Sendable {
        let cache: any ImageCaching
        let key: String
        /// Kept in memory, and handed to a serializer or an encoder for the disk.
        var image: Image?
        let data: Data?
        let originalData: Data?
        let metadata: DiskCacheMetadata?
        let cacheType: ImageCacheType
        let options: WebImageOptions
        let context: WebImageContext
        let url: URL

        /// The original goes under the original key with `originalStoreCacheType` (default disk),
        /// minus the cache it `cameFrom`. A thumbnail is not the original: only its data is kept.
        static func original(
            of load: PreparedLoad, image: Image, data: Data?, metadata: DiskCacheMetadata?, cameFrom: ImageCacheType
        ) -> CacheStore {
            var storeType = load.context.originalStoreCacheType ?? .disk
            if cameFrom == .disk {
                storeType = storeType == .all ? .memory : (storeType == .disk ? .none : storeType)
            }
            return CacheStore(
                cache: load.context.originalImageCache ?? load.cache, key: load.originalKey,
                image: image.isThumbnail ? nil : image, data: data, originalData: data, metadata: metadata,
                cacheType: storeType, options: load.options, context: load.context, url: load.url)
        }

        /// The result goes under the full key with `storeCacheType` (default all); `data` only
        /// when it still describes the image (not for a transformed image or a thumbnail).
        static func result(of load: PreparedLoad, image: Image, data: Data?, metadata: DiskCacheMetadata?)
            -> CacheStore
        {
            CacheStore(
                cache: load.cache, key: load.fullKey, image: image, data: data, originalData: data,
                metadata: metadata, cacheType: load.context.storeCacheType ?? .all, options: load.options,
                context: load.context, url: load.url)
        }

        /// Writes the part of this store that `part` allows; a failure is logged, never thrown.
        func run(_ part: ImageCacheType, telemetry: ManagerTelemetry) async {
            let cacheType = cacheType.restricted(to: part)
            guard cacheType != .none, image != nil || data != nil else { return }
            var data = data
            if let serializer = context.cacheSerializer, let image, cacheType.includesDisk {
                data = serializer.cacheData(for: image, originalData: originalData, url: url)
            }
            do {
                try await cache.store(
                    image, data: data, metadata: metadata, forKey: key, options: options, context: context,
                    cacheType: cacheType)
            } catch {
                telemetry.storeFailed(key: key, error: error)
            }
        }

        /// Starts the disk part without waiting for it. The decoded image is let go unless the
        /// disk needs it (a serializer, or no bytes to write), so it does not outlive the load
        /// while the write waits its turn. Bytes for an ``ImageCache`` go straight to its file
        /// threads; anything else runs in a task of its own.
        func startDisk(telemetry: ManagerTelemetry) {
            guard cacheType.includesDisk else { return }
            var store = self
            if store.context.cacheSerializer == nil, store.data != nil { store.image = nil }
            if let data = store.data, store.image == nil, let imageCache = cache as? ImageCache {
                imageCache.storeImageDataToDiskInBackground(data, forKey: key, metadata: metadata) { [key] error in
                    telemetry.storeFailed(key: key, error: error)
                }
                return
            }
            Task(priority: .utility) { await store.run(.disk, telemetry: telemetry) }
        }
    }
}
