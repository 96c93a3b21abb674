import Foundation
import Testing

@testable import WebImage

/// Transformers, thumbnails, originals, refreshes, progressive results and cancellation.
@Suite struct ImageManagerTransformAndRefreshTests {
    typealias F = ManagerFixtures
    static let halve = ImageClosureTransformer(key: "Halve") { image throws(WebImageError) in
        Image(bitmap: try image.bitmap.resampled(to: PixelSize(width: image.width / 2, height: image.height / 2)))
    }

    @Test func transformedImagesAreCachedUnderTheTransformedKeyAndTheOriginalOnDisk() async throws {
        let (manager, loader, cache, disk) = try F.make()
        manager.transformer = Self.halve
        let result = try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache)
        #expect(result.image.width == 400 && result.image.isTransformed)
        #expect(result.data == nil, "transformed images pass on no data")
        let fullKey = manager.cacheKey(for: F.jpegURL, context: nil)
        #expect(fullKey == "test://origin/photo-Halve.jpg")
        #expect(cache.imageFromMemoryCache(forKey: fullKey)?.width == 400)
        #expect(disk.storedData(forKey: F.jpegURL.absoluteString) == (try F.jpeg()), "the original's bytes, on disk")
        #expect(cache.imageFromMemoryCache(forKey: F.jpegURL.absoluteString) == nil, "originals default to disk only")
        #expect(loader.requestCount(for: F.jpegURL) == 1)
    }

    @Test func anOriginalOnDiskIsTransformedWithoutDownloading() async throws {
        let (manager, loader, _, _) = try F.make()
        _ = try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache)
        var context = WebImageContext()
        context.imageTransformer = .transformer(Self.halve)
        let result = try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache, context: context)
        #expect(result.image.width == 400)
        #expect(result.cacheType == .disk)
        #expect(loader.requestCount(for: F.jpegURL) == 1)
        let thumbnailContext = { () -> WebImageContext in
            var context = WebImageContext()
            context.imageThumbnailPixelSize = PixelSize(width: 100, height: 100)
            return context
        }()
        let thumbnail = try await manager.loadImage(with: F.jpegURL, context: thumbnailContext)
        #expect(thumbnail.image.width == 100 && thumbnail.image.height == 75)
        #expect(loader.requestCount(for: F.jpegURL) == 1, "a thumbnail is built from the disk original")
    }

    @Test func disabledTransformerInTheContextWinsOverTheManagers() async throws {
        let (manager, _, _, _) = try F.make()
        manager.transformer = Self.halve
        var context = WebImageContext()
        context.imageTransformer = .disabled
        let result = try await manager.loadImage(with: F.jpegURL, context: context)
        #expect(result.image.width == 800 && !result.image.isTransformed)
        #expect(manager.cacheKey(for: F.jpegURL, context: context) == F.jpegURL.absoluteString)
    }

    @Test func cacheKeysCombineFilterThumbnailAndTransformerInSDWebImagesFormat() throws {
        let (manager, _, _, _) = try F.make()
        var context = WebImageContext()
        context.imageThumbnailPixelSize = PixelSize(width: 100, height: 100)
        context.imageTransformer = .transformer(ImageFlippingTransformer(horizontal: true, vertical: false))
        let url = try #require(URL(string: "http://foo/image.png?foo=bar#mark"))
        #expect(
            manager.cacheKey(for: url, context: context)
                == "http://foo/image-Thumbnail({100.000000,100.000000},1)-SDImageFlippingTransformer(1,0).png?foo=bar#mark"
        )
        #expect(manager.cacheKey(for: nil as URL?) == "")
    }

    /// A transformer of its own, as a user writes one: it makes a new image and sets nothing
    /// but what `metadata` gives it.
    struct Darkening: ImageTransforming {
        var preservesImageMetadata = true
        var metadata: (format: ImageFormat, scale: Double) = (.undefined, 1)
        var transformerKey: String { "Darkening(\(preservesImageMetadata),\(metadata.format),\(metadata.scale))" }

        func transformedImage(_ image: Image, forKey key: String) throws(WebImageError) -> Image {
            var bitmap = image.bitmap
            bitmap.pixels.withUnsafeMutableBufferPointer { pixels in
                for index in pixels.indices where index % 4 != 3 { pixels[index] /= 2 }
            }
            return Image(bitmap: bitmap, scale: metadata.scale, format: metadata.format, hasAlpha: false)
        }
    }

    @Test func aTransformedImageKeepsTheSourcesFormatAndScale() async throws {
        let (manager, _, _, _) = try F.make()
        var context = WebImageContext()
        context.imageTransformer = .transformer(Darkening())
        context.imageScaleFactor = 2
        let result = try await manager.loadImage(with: F.jpegURL, context: context)
        #expect(result.image.format == .jpeg)
        #expect(result.image.scale == 2)
        #expect(result.image.isTransformed)
        #expect(result.image.width == 800, "the transformer's pixels")
    }

    @Test func aTransformerThatOptsOutOfMetadataKeepsWhatItSet() async throws {
        let (manager, _, _, _) = try F.make()
        var context = WebImageContext()
        context.imageTransformer = .transformer(Darkening(preservesImageMetadata: false, metadata: (.jpeg, 3)))
        let kept = try await manager.loadImage(with: F.pngURL, context: context)
        #expect(kept.image.format == .jpeg, "its own format, not the PNG source's nor .undefined")
        #expect(kept.image.scale == 3)
        #expect(kept.image.isTransformed)
        context.imageTransformer = .transformer(Darkening(preservesImageMetadata: false))
        let bare = try await manager.loadImage(with: F.pngURL, context: context)
        #expect(bare.image.format == .undefined)
        // A pipeline opts out too, and copies metadata per step itself: its result stands.
        context.imageTransformer = .transformer(ImagePipelineTransformer([Darkening()]))
        let piped = try await manager.loadImage(with: F.jpegURL, context: context)
        #expect(piped.image.format == .jpeg)
    }

    @Test func aThrowingTransformerFailsTheLoadAndCachesNothingUnderItsKey() async throws {
        let (manager, _, cache, _) = try F.make()
        manager.transformer = ImageCroppingTransformer(x: 5000, y: 5000, width: 10, height: 10)
        let error = await loadError { () throws(WebImageError) in
            try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache)
        }
        guard error?.code == .invalidArgument else {
            Issue.record("expected invalidArgument, got \(String(describing: error))")
            return
        }
        #expect(cache.imageFromMemoryCache(forKey: manager.cacheKey(for: F.jpegURL, context: nil)) == nil)
        #expect(!manager.isFailedURL(F.jpegURL))
    }

    @Test func refreshCachedCallsBackTwiceWhenTheImageChangedAndOnceWhenNotModified() async throws {
        let (manager, loader, _, _) = try F.make()
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache)
        let changed = CompletionLog()
        manager.loadImage(with: F.pngURL, options: [.refreshCached, .waitStoreCache], completed: changed.completion)
        try await changed.waitForFinished(2)
        #expect(changed.all.map(\.cacheType) == [.memory, .none])
        #expect(loader.requestCount(for: F.pngURL) == 2)
        #expect(loader.lastContext?.loaderCachedImage?.width == 11)

        loader.respond(to: F.pngURL, with: .failure(.cacheNotModified))
        let same = CompletionLog()
        manager.loadImage(with: F.pngURL, options: .refreshCached, completed: same.completion)
        try await same.waitForFinished(1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(same.all.count == 1, "no second callback when the server says the cached image is current")
        #expect(loader.requestCount(for: F.pngURL) == 3)
        #expect(!manager.isFailedURL(F.pngURL))
        let async = try await manager.loadImage(with: F.pngURL, options: .refreshCached)
        #expect(async.cacheType == .memory, "the async API returns the cached image when it is current")
    }

    @Test func eventStreamShowsTheCachedImageThenTheRefreshedOne() async throws {
        let (manager, _, _, _) = try F.make()
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache)
        var kinds: [String] = []
        for try await event in manager.imageEvents(with: F.pngURL, options: .refreshCached) {
            switch event {
            case .progress: if kinds.last != "progress" { kinds.append("progress") }
            case .partialImage: kinds.append("partial")
            case .cachedImage(let result): kinds.append("cached-\(result.cacheType)")
            case .finished(let result): kinds.append("finished-\(result.cacheType)")
            }
        }
        #expect(kinds == ["cached-memory", "progress", "finished-none"])
    }

    @Test func partialImagesAreDeliveredButNeverStored() async throws {
        let (manager, loader, cache, _) = try F.make()
        loader.respond(to: F.jpegURL, with: .data(try F.jpeg(), partial: true))
        let log = CompletionLog()
        manager.loadImage(with: F.jpegURL, options: [.progressiveLoad, .waitStoreCache], completed: log.completion)
        try await log.waitForFinished()
        #expect(log.all.map(\.finished) == [false, true])
        #expect(log.all[0].image?.isIncremental == true)
        #expect(cache.imageFromMemoryCache(forKey: F.jpegURL.absoluteString)?.isIncremental == false)
    }

    @Test func cancellingEndsWithCancelledNeverAnImageAndStopsTheLoader() async throws {
        let (manager, loader, _, _) = try F.make()
        let url = try #require(URL(string: "test://origin/hang.png"))
        loader.respond(to: url, with: .hang)
        let log = CompletionLog()
        let operation = manager.loadImage(with: url, completed: log.completion)
        #expect(await eventually { loader.requestCount(for: url) != 0 })
        #expect(manager.isRunning)
        operation.cancel()
        operation.cancel()
        try await log.waitForFinished()
        #expect(log.all.count == 1)
        #expect(log.all[0].error == .cancelled && log.all[0].image == nil)
        #expect(await eventually { loader.cancellationCount(for: url) == 1 }, "the loader's load is cancelled")
        #expect(operation.isCancelled)
        #expect(!manager.isRunning)
        #expect(!manager.isFailedURL(url))
    }

    @Test func cancelHandlersRunOnceOnCancelAtOnceWhenAlreadyCancelledAndNeverAfterFinishing() async throws {
        let (manager, loader, _, _) = try F.make()
        let url = try #require(URL(string: "test://origin/hang-handler.png"))
        loader.respond(to: url, with: .hang)
        let runs = Locked(0)
        let operation = manager.loadImage(with: url, completed: CompletionLog().completion)
        operation.onCancel { runs.withLock { $0 += 1 } }
        #expect(runs.withLock { $0 } == 0)
        operation.cancel()
        operation.cancel()
        #expect(runs.withLock { $0 } == 1)
        // Set on an operation that is already cancelled: runs at once.
        operation.onCancel { runs.withLock { $0 += 10 } }
        #expect(runs.withLock { $0 } == 11)

        let log = CompletionLog()
        let finished = manager.loadImage(with: F.pngURL, completed: log.completion)
        try await log.waitForFinished()
        finished.onCancel { runs.withLock { $0 += 100 } }
        finished.cancel()
        #expect(runs.withLock { $0 } == 11)
    }

    @Test func cancelAllCancelsEveryRunningLoad() async throws {
        let (manager, loader, _, _) = try F.make()
        let logs = (0..<3).map { _ in CompletionLog() }
        for (index, log) in logs.enumerated() {
            let url = try #require(URL(string: "test://origin/hang\(index).png"))
            loader.respond(to: url, with: .hang)
            manager.loadImage(with: url, completed: log.completion)
        }
        #expect(manager.isRunning)
        manager.cancelAll()
        for log in logs {
            try await log.waitForFinished()
            #expect(log.all.map(\.error) == [.cancelled])
        }
        #expect(!manager.isRunning)
    }

    @Test func cancellingTheAwaitingTaskThrowsCancelled() async throws {
        let (manager, loader, _, _) = try F.make()
        let url = try #require(URL(string: "test://origin/hang-async.png"))
        loader.respond(to: url, with: .hang)
        let task = Task { () throws(WebImageError) -> ImageManagerResult in try await manager.loadImage(with: url) }
        #expect(await eventually { manager.isRunning })
        task.cancel()
        let result = await task.result
        #expect(throws: WebImageError.cancelled) { try result.get() }
        #expect(!manager.isRunning)
    }

    @Test func animatedImagesAreTransformedOnlyWithTransformAnimatedImage() async throws {
        let (manager, loader, _, _) = try F.make()
        let gifPath = "gif/loop3_delays.gif"
        let url = try #require(URL(string: "test://origin/anim.gif"))
        loader.respond(to: url, with: .data(try Fixtures.data(gifPath)))
        manager.transformer = Self.halve
        let plain = try await manager.loadImage(with: url, options: .fromLoaderOnly)
        #expect(!plain.image.isTransformed && plain.image.isAnimated)
        let transformed = try await manager.loadImage(with: url, options: [.fromLoaderOnly, .transformAnimatedImage])
        #expect(transformed.image.isTransformed)
        #expect(transformed.image.frameCount == plain.image.frameCount)
        #expect(transformed.image.width == plain.image.width / 2)
        #expect(transformed.image.animation?.duration(at: 0) == plain.image.animation?.duration(at: 0))
    }
}
