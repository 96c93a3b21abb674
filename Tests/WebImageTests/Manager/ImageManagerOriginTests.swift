import Foundation
import Testing
import WebImageTestOrigin

@testable import WebImage

/// The manager over the real downloader, a real cache on disk and the local origin.
@Suite struct ImageManagerOriginTests {
    typealias O = ManagerOriginFixture

    @Test func thousandConcurrentLoadsOfOneURLMakeOneRequestAndOneDecode() async throws {
        try await O.run { fixture in
            // The delay keeps the transfer open until every load has joined it.
            let url = fixture.origin.url(O.jpegPath + "?delay=3000")
            let coder = CountingCoder()
            let context = {
                var context = WebImageContext()
                context.imageCoder = coder
                return context
            }()
            let widths = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<1000 {
                    group.addTask { try await fixture.manager.loadImage(with: url, context: context).image.width }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(widths.count == 1000)
            #expect(widths.allSatisfy { $0 == 800 })
            #expect(fixture.origin.requestCount(path: O.jpegPath) == 1)
            #expect(coder.decodes == 1)
        }
    }

    @Test func finishedLoadsLeaveNoSharedWorkOrSubscriptionBehind() async throws {
        try await O.run { fixture in
            var context = WebImageContext()
            context.storeCacheType = .disk
            for index in 0..<12 {
                let url = fixture.origin.url(O.jpegPath + "?leak=\(index)")
                // Cold (disk miss, download, decode, store), then a disk hit.
                for _ in 0..<2 {
                    let result = try await fixture.manager.loadImage(
                        with: url, options: .waitStoreCache, context: context)
                    #expect(result.image.width == 800)
                }
            }
            #expect(await eventually { fixture.manager.loads.liveSubscriptionCount == 0 })
            #expect(await eventually { fixture.cache.diskReads.liveSubscriptionCount == 0 })
            #expect(await eventually { fixture.downloader.decodes.liveSubscriptionCount == 0 })
            #expect(await eventually { fixture.downloader.transfers.liveSubscriptionCount == 0 })
        }
    }

    @Test func aSecondLoadIsAMemoryHitAndAfterClearingMemoryADiskHit() async throws {
        try await O.run { fixture in
            let url = fixture.origin.url(O.pngPath)
            let first = try await fixture.manager.loadImage(with: url, options: .waitStoreCache)
            #expect(first.cacheType == .none)
            #expect(fixture.origin.requestCount(path: O.pngPath) == 1)

            let second = try await fixture.manager.loadImage(with: url)
            #expect(second.cacheType == .memory)
            #expect(second.image.bitmap == first.image.bitmap)

            fixture.cache.clearMemory()
            let third = try await fixture.manager.loadImage(with: url)
            #expect(third.cacheType == .disk)
            #expect(third.image.bitmap == first.image.bitmap)
            #expect(fixture.origin.requestCount(path: O.pngPath) == 1)
        }
    }

    @Test func aNotFoundIsReportedAndNotBlocklisted() async throws {
        try await O.run { fixture in
            let path = "/fixtures/png/missing.png"
            let url = fixture.origin.url(path)
            let error = await loadError { () throws(WebImageError) in try await fixture.manager.loadImage(with: url) }
            #expect(error == .invalidDownloadStatusCode(404))
            #expect(!fixture.manager.isFailedURL(url))
            _ = await loadError { () throws(WebImageError) in try await fixture.manager.loadImage(with: url) }
            #expect(fixture.origin.requestCount(path: path) == 2)
        }
    }

    @Test func undecodableDataIsBlocklistedUntilRetriedOrRemoved() async throws {
        try await O.run { fixture in
            let path = "/garbage.jpg"
            fixture.origin.register(path: path, body: Data("not an image at all".utf8), contentType: "image/jpeg")
            let url = fixture.origin.url(path)
            let load = { (options: WebImageOptions) async -> WebImageError? in
                await loadError { () throws(WebImageError) in
                    try await fixture.manager.loadImage(with: url, options: options)
                }
            }
            let first = await load([])
            guard first?.code == .badImageData else {
                Issue.record("expected badImageData, got \(String(describing: first))")
                return
            }
            #expect(fixture.manager.isFailedURL(url))
            #expect(await load([]) == .blackListed(url.absoluteString))
            #expect(fixture.origin.requestCount(path: path) == 1)

            guard (await load(.retryFailed))?.code == .badImageData else {
                Issue.record("retryFailed should load again and fail to decode again")
                return
            }
            #expect(fixture.origin.requestCount(path: path) == 2)

            fixture.manager.removeFailedURL(url)
            guard (await load([]))?.code == .badImageData else {
                Issue.record("a removed URL should load again")
                return
            }
            #expect(fixture.origin.requestCount(path: path) == 3)
        }
    }

    @Test func aRefreshAnsweredNotModifiedCallsBackOnlyWithTheCachedImage() async throws {
        try await O.run { fixture in
            let url = fixture.origin.url(O.pngPath + "?etag=v1")
            _ = try await fixture.manager.loadImage(with: url, options: .waitStoreCache)
            let log = CompletionLog()
            fixture.manager.loadImage(with: url, options: .refreshCached, completed: log.completion)
            try await log.waitForFinished()
            #expect(
                await eventually {
                    fixture.origin.requestCount(path: O.pngPath) == 2 && !fixture.manager.isRunning
                })
            #expect(!fixture.manager.isRunning)
            let requests = fixture.origin.requests(path: O.pngPath)
            #expect(requests.count == 2)
            #expect(requests.last?.header("If-None-Match") == "\"v1\"")
            // Give a wrongly delivered second callback time to arrive.
            try await Task.sleep(for: .milliseconds(200))
            let calls = log.all
            #expect(calls.count == 1)
            #expect(calls.first?.image != nil)
            #expect(calls.first?.cacheType == .memory)
            #expect(calls.first?.error == nil)
        }
    }

    @Test func aTransformedLoadStoresTheResultAndTheOriginalUnderTheirOwnKeys() async throws {
        try await O.run { fixture in
            let url = fixture.origin.url(O.jpegPath)
            let transformer = ImageResizingTransformer(size: PixelSize(width: 40, height: 30))
            var context = WebImageContext()
            context.imageTransformer = .transformer(transformer)
            let result = try await fixture.manager.loadImage(with: url, options: .waitStoreCache, context: context)
            #expect(result.image.width == 40)
            #expect(result.image.height == 30)

            let originalKey = fixture.manager.cacheKey(for: url)
            let transformedKey = fixture.manager.cacheKey(for: url, context: context)
            #expect(transformedKey == CacheKeys.transformed(originalKey, transformerKey: transformer.transformerKey))
            #expect(transformedKey != originalKey)
            #expect(await fixture.cache.containsImage(forKey: transformedKey) == .memory)
            #expect(await fixture.cache.containsImage(forKey: originalKey, cacheType: .disk) == .disk)
            #expect(fixture.cache.imageFromMemoryCache(forKey: transformedKey)?.width == 40)
            let original = try #require(fixture.cache.diskCache.data(forKey: originalKey))
            #expect(try ImageCodersManager.shared.decode(original, options: ImageDecodeOptions()).width == 800)
        }
    }

    @Test func cancellingOneOfTwoConcurrentLoadsEndsOnlyIt() async throws {
        try await O.run { fixture in
            let url = fixture.origin.url(O.pngPath + "?delay=1500")
            let cancelled = CompletionLog()
            let kept = CompletionLog()
            let operation = fixture.manager.loadImage(with: url, completed: cancelled.completion)
            fixture.manager.loadImage(with: url, completed: kept.completion)
            #expect(await eventually { fixture.origin.requestCount(path: O.pngPath) == 1 })
            operation.cancel()
            try await cancelled.waitForFinished()
            try await kept.waitForFinished()
            #expect(cancelled.all.map(\.error) == [.cancelled])
            #expect(cancelled.all.allSatisfy { $0.image == nil })
            #expect(kept.all.count == 1)
            #expect(kept.all.first?.image != nil)
            #expect(kept.all.first?.error == nil)
            #expect(fixture.origin.requestCount(path: O.pngPath) == 1)
        }
    }
}
