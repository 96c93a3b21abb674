import Dispatch
import Foundation
import Testing

@testable import WebImage

/// SDWebImage's load flow, step by step: caches, loader, transform and store, in its order.
@Suite struct ImageManagerLoadFlowTests {
    typealias F = ManagerFixtures

    @Test func firstLoadComesFromTheLoaderAndTheSecondFromMemory() async throws {
        let (manager, loader, _, disk) = try F.make()
        let first = try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache)
        #expect(first.cacheType == .none)
        #expect(first.image.width == 800 && first.image.height == 600)
        #expect(first.data == (try F.jpeg()))
        #expect(disk.storedData(forKey: F.jpegURL.absoluteString) == (try F.jpeg()))
        let second = try await manager.loadImage(with: F.jpegURL)
        #expect(second.cacheType == .memory)
        #expect(loader.requestCount(for: F.jpegURL) == 1)
        #expect(!manager.isRunning)
    }

    @Test func nilEmptyAndMalformedURLsFailWithInvalidURLAndNeverRun() async throws {
        let (manager, loader, _, _) = try F.make()
        #expect(
            await loadError { () throws(WebImageError) in try await manager.loadImage(with: nil as URL?) }
                == .invalidURL(""))
        #expect(
            await loadError { () throws(WebImageError) in try await manager.loadImage(with: "") } == .invalidURL(""))
        let log = CompletionLog()
        manager.loadImage(with: nil as URL?, completed: log.completion)
        #expect(log.all.count == 1)
        #expect(log.all.first?.error == .invalidURL(""))
        #expect(log.all.first?.finished == true)
        #expect(loader.totalRequests == 0)
        #expect(!manager.isRunning)
    }

    @Test func badDataIsBlockedUntilRetryFailedAndASuccessUnblocks() async throws {
        let (manager, loader, _, _) = try F.make()
        let first = await loadError { () throws(WebImageError) in try await manager.loadImage(with: F.garbageURL) }
        guard first?.code == .badImageData else {
            Issue.record("expected bad image data, got \(String(describing: first))")
            return
        }
        #expect(manager.isFailedURL(F.garbageURL))
        let second = await loadError { () throws(WebImageError) in try await manager.loadImage(with: F.garbageURL) }
        #expect(second == .blackListed(F.garbageURL.absoluteString))
        #expect(loader.requestCount(for: F.garbageURL) == 1)
        loader.respond(to: F.garbageURL, with: .data(try F.png()))
        let retried = try await manager.loadImage(with: F.garbageURL, options: .retryFailed)
        #expect(retried.image.width == 11)
        #expect(!manager.isFailedURL(F.garbageURL))
        #expect(loader.requestCount(for: F.garbageURL) == 2)
    }

    @Test func statusCodesTimeoutsAndCancellationAreNotBlocked() async throws {
        let (manager, loader, _, _) = try F.make()
        let errors: [WebImageError] = [
            .invalidDownloadStatusCode(404), .transferFailed(TransferFailure(.timedOut, "")),
            .transferFailed(TransferFailure(.cannotConnect, "")),
        ]
        for (index, error) in errors.enumerated() {
            let url = try #require(URL(string: "test://origin/fail\(index).png"))
            loader.respond(to: url, with: .failure(error))
            #expect(await loadError { () throws(WebImageError) in try await manager.loadImage(with: url) } == error)
            #expect(!manager.isFailedURL(url))
        }
    }

    @Test func delegateOverridesTheBlockDecisionAndCanRefuseDownloads() async throws {
        let (manager, loader, _, _) = try F.make()
        let delegate = TestDelegate(allowDownloads: false, block: true)
        manager.delegate = delegate
        let refused = await loadError { () throws(WebImageError) in try await manager.loadImage(with: F.jpegURL) }
        guard refused?.code == .notLoaded else {
            Issue.record("expected notLoaded, got \(String(describing: refused))")
            return
        }
        #expect(loader.totalRequests == 0)
        let log = CompletionLog()
        manager.loadImage(with: F.jpegURL, completed: log.completion)
        try await log.waitForFinished()
        #expect(log.all.count == 1)
        #expect(log.all[0].image == nil && log.all[0].error == nil && log.all[0].finished)

        delegate.allowDownloads = true
        let url = try #require(URL(string: "test://origin/missing.png"))
        _ = await loadError { () throws(WebImageError) in try await manager.loadImage(with: url) }
        #expect(manager.isFailedURL(url), "the delegate's block decision wins over the loader's (404: no)")
    }

    @Test func fromCacheOnlyNeverCallsTheLoaderAndFromLoaderOnlySkipsTheCache() async throws {
        let (manager, loader, _, _) = try F.make()
        let miss = await loadError { () throws(WebImageError) in
            try await manager.loadImage(with: F.pngURL, options: .fromCacheOnly)
        }
        guard miss?.code == .notLoaded else {
            Issue.record("expected notLoaded, got \(String(describing: miss))")
            return
        }
        #expect(loader.totalRequests == 0)
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache)
        let hit = try await manager.loadImage(with: F.pngURL, options: .fromCacheOnly)
        #expect(hit.cacheType == .memory)
        let loaded = try await manager.loadImage(with: F.pngURL, options: .fromLoaderOnly)
        #expect(loaded.cacheType == .none)
        #expect(loader.requestCount(for: F.pngURL) == 2)
    }

    @Test func cachedImagesStayOnTheirCacheTypeAndQueryCacheTypeIsHonoured() async throws {
        let (manager, _, cache, _) = try F.make()
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache)
        await cache.removeImage(forKey: F.pngURL.absoluteString, cacheType: .memory)
        var context = WebImageContext()
        context.queryCacheType = .memory
        let memoryOnly = await loadError { () throws(WebImageError) in
            try await manager.loadImage(with: F.pngURL, options: .fromCacheOnly, context: context)
        }
        guard memoryOnly?.code == .notLoaded else {
            Issue.record("a memory-only query must miss; got \(String(describing: memoryOnly))")
            return
        }
        context.queryCacheType = .disk
        let disk = try await manager.loadImage(with: F.pngURL, options: .fromCacheOnly, context: context)
        #expect(disk.cacheType == .disk)
        #expect(disk.data == (try F.png()))
    }

    @Test func memoryHoldsTheImageAtCompletionWithoutWaitStoreCache() async throws {
        let (manager, loader, cache, _) = try F.make()
        for round in 0..<20 {
            let url = URL(string: "test://origin/photo-\(round).jpg")!
            loader.respond(to: url, with: .data(try F.jpeg()))
            _ = try await manager.loadImage(with: url)
            // Checked before any other await: a load starting now must not download again.
            #expect(cache.memoryCache.image(forKey: url.absoluteString)?.width == 800)
            #expect(try await manager.loadImage(with: url).cacheType == .memory)
            #expect(loader.requestCount(for: url) == 1)
        }
    }

    @Test func waitStoreCacheMeansTheDiskHoldsTheImageAtCompletion() async throws {
        let (manager, _, _, disk) = try F.make()
        _ = try await manager.loadImage(with: F.jpegURL, options: .waitStoreCache)
        #expect(disk.containsData(forKey: F.jpegURL.absoluteString))
    }

    @Test func completionRunsOnTheContextsCallbackQueue() async throws {
        let (manager, _, _, _) = try F.make()
        let queue = DispatchQueue(label: "callback")
        queue.setSpecific(key: CompletionLog.queueKey, value: "callback")
        var context = WebImageContext()
        context.callbackQueue = queue
        let log = CompletionLog()
        manager.loadImage(with: F.pngURL, context: context, completed: log.completion)
        try await log.waitForFinished()
        #expect(log.all.allSatisfy { $0.onQueue })
        #expect(log.all.first?.image?.width == 11)
    }

    @Test func optionsProcessorRewritesOptionsAndContext() async throws {
        let (manager, loader, _, _) = try F.make()
        manager.optionsProcessor = ImageOptionsProcessor { _, options, context in
            var context = context ?? WebImageContext()
            context.imageThumbnailPixelSize = PixelSize(width: 80, height: 80)
            return ImageOptionsResult(options: options.union(.fromLoaderOnly), context: context)
        }
        let result = try await manager.loadImage(with: F.jpegURL)
        #expect(result.image.width == 80 && result.image.height == 60)
        #expect(result.image.isThumbnail)
        #expect(result.data == nil, "thumbnails pass on no data")
        _ = try await manager.loadImage(with: F.jpegURL)
        #expect(loader.requestCount(for: F.jpegURL) == 2, "fromLoaderOnly from the processor skips the cache")
    }

    @Test func cacheKeyFilterDecidesWhereTheImageIsStored() async throws {
        let (manager, loader, cache, _) = try F.make()
        manager.cacheKeyFilter = ImageCacheKeyFilter.removingQueryItems(named: ["sig"])
        let signed = try #require(URL(string: "test://origin/photo.jpg?sig=abc"))
        loader.respond(to: signed, with: .data(try F.jpeg()))
        _ = try await manager.loadImage(with: signed, options: .waitStoreCache)
        #expect(manager.cacheKey(for: signed) == "test://origin/photo.jpg")
        #expect(cache.imageFromMemoryCache(forKey: "test://origin/photo.jpg") != nil)
        let again = try #require(URL(string: "test://origin/photo.jpg?sig=xyz"))
        let hit = try await manager.loadImage(with: again)
        #expect(hit.cacheType == .memory)
        #expect(loader.totalRequests == 1)
    }

    @Test func cacheSerializerOutputLandsOnDisk() async throws {
        let (manager, _, _, disk) = try F.make()
        manager.cacheSerializer = ImageCacheSerializer { _, data, _ in (data ?? Data()) + Data("-tail".utf8) }
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache)
        #expect(disk.storedData(forKey: F.pngURL.absoluteString) == (try F.png()) + Data("-tail".utf8))
    }
}

final class TestDelegate: ImageManagerDelegate {
    private let state: Locked<(allowDownloads: Bool, block: Bool?)>

    init(allowDownloads: Bool, block: Bool?) {
        state = Locked((allowDownloads, block))
    }

    var allowDownloads: Bool {
        get { state.withLock { $0.allowDownloads } }
        set { state.withLock { $0.allowDownloads = newValue } }
    }

    func imageManager(_ manager: ImageManager, shouldDownloadImageFor url: URL) -> Bool { allowDownloads }
    func imageManager(_ manager: ImageManager, shouldBlockFailedURL url: URL, error: WebImageError) -> Bool? {
        state.withLock { $0.block }
    }
}
