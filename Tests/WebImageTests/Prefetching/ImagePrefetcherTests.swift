import Dispatch
import Foundation
import Testing

@testable import WebImage

@Suite("ImagePrefetcher")
struct ImagePrefetcherTests {
    @Test("a new prefetcher is not the shared one, and the shared one has its own manager")
    func sharedAndNew() throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let prefetcher = ImagePrefetcher(manager: manager)
        #expect(prefetcher !== ImagePrefetcher.shared)
        #expect(prefetcher.manager === manager)
        #expect(ImagePrefetcher.shared.manager !== ImageManager.shared)
        #expect(prefetcher.maxConcurrentPrefetchCount == 3)
    }

    @Test("three URLs: progress three times in order, then completed (3, 0), and all are cached")
    func threeURLs() async throws {
        let (manager, loader, cache, _) = try ManagerFixtures.make()
        let urls = try PrefetchFixtures.urls(3, loader: loader)
        let log = PrefetchLog()
        let queue = DispatchQueue(label: "test.prefetch")
        let token = ImagePrefetcher(manager: manager).prefetchURLs(
            urls, context: PrefetchFixtures.context(queue), progress: log.progress, completed: log.completed)
        #expect(token?.urls == urls)
        #expect(await settles { !log.completions.isEmpty })
        #expect(
            log.all == [
                .progress(finished: 1, total: 3), .progress(finished: 2, total: 3), .progress(finished: 3, total: 3),
                .completed(finished: 3, skipped: 0),
            ])
        for url in urls { #expect(cache.imageFromMemoryCache(forKey: url.absoluteString) != nil) }
        #expect(loader.totalRequests == 3)
    }

    @Test("an empty list completes at once with (0, 0) and returns no token")
    func emptyList() throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let log = PrefetchLog()
        let token = ImagePrefetcher(manager: manager).prefetchURLs([], completed: log.completed)
        #expect(token == nil)
        #expect(log.all == [.completed(finished: 0, skipped: 0)])
    }

    @Test("failed URLs are skipped and reported to the delegate")
    func skippedURLs() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = try PrefetchFixtures.urls(2, loader: loader) + [ManagerFixtures.garbageURL]
        let log = PrefetchLog()
        let prefetcher = ImagePrefetcher(manager: manager)
        prefetcher.delegate = log
        let result = await prefetcher.prefetch(urls)
        #expect(result == ImagePrefetchResult(finishedCount: 3, skippedCount: 1, totalCount: 3))
        #expect(await settles { log.all.contains(.delegateSkip(ManagerFixtures.garbageURL)) })
    }

    @Test("overlapping lists from different tasks both complete with their own counts")
    func overlappingLists() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = try PrefetchFixtures.urls(12, loader: loader, delay: 5)
        let prefetcher = ImagePrefetcher(manager: manager)
        async let first = prefetcher.prefetch(Array(urls[0..<8]))
        async let second = prefetcher.prefetch(Array(urls[4..<12]))
        let results = await [first, second]
        #expect(results.allSatisfy { $0 == ImagePrefetchResult(finishedCount: 8, skippedCount: 0, totalCount: 8) })
        #expect(prefetcher.runningTokenCount == 0)
    }

    @Test("20 URLs: the delegate sees summed counts before each progress, and one finish")
    func delegateCounts() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = try PrefetchFixtures.urls(20, loader: loader)
        let log = PrefetchLog()
        let prefetcher = ImagePrefetcher(manager: manager)
        prefetcher.delegate = log
        prefetcher.prefetchURLs(urls, progress: log.progress, completed: log.completed)
        #expect(await settles { !log.completions.isEmpty })
        var expected: [PrefetchLog.Event] = []
        for finished in 1...20 {
            expected += [.delegateProgress(finished: finished, total: 20), .progress(finished: finished, total: 20)]
        }
        expected += [.delegateFinish(total: 20, skipped: 0), .completed(finished: 20, skipped: 0)]
        #expect(log.all == expected)
    }

    @Test("the delegate's counts are summed over running tokens, and it finishes only with the last token")
    func delegateSumsTokens() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let quick = try PrefetchFixtures.urls(2, loader: loader, prefix: "q")
        let slow = URL(string: "test://origin/slow.png")!
        loader.respond(to: slow, with: .hang)
        let log = PrefetchLog()
        let prefetcher = ImagePrefetcher(manager: manager)
        prefetcher.delegate = log
        let slowToken = prefetcher.prefetchURLs([slow])
        prefetcher.prefetchURLs(quick, completed: log.completed)
        #expect(await settles { !log.completions.isEmpty })
        let delegateEvents = log.all.filter { if case .completed = $0 { false } else { true } }
        #expect(
            delegateEvents == [.delegateProgress(finished: 1, total: 3), .delegateProgress(finished: 2, total: 3)])
        #expect(prefetcher.runningTokenCount == 1)
        slowToken?.cancel()
        #expect(prefetcher.runningTokenCount == 0)
    }

    @Test("cancelling a token drops its blocks, cancels its loads, and leaves no running token")
    func cancelToken() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = (0..<5).map { URL(string: "test://origin/hang\($0).png")! }
        for url in urls { loader.respond(to: url, with: .hang) }
        let log = PrefetchLog()
        let queue = DispatchQueue(label: "test.prefetch.cancel")
        let prefetcher = ImagePrefetcher(manager: manager)
        let token = try #require(
            prefetcher.prefetchURLs(
                urls, context: PrefetchFixtures.context(queue), progress: log.progress, completed: log.completed))
        #expect(await settles { loader.totalRequests == 3 })
        token.cancel()
        #expect(token.isCancelled)
        #expect(prefetcher.runningTokenCount == 0)
        #expect(await settles { !manager.isRunning })
        queue.sync {}
        #expect(log.all.isEmpty)
        #expect(loader.totalRequests == 3, "queued URLs of a cancelled token never start")
    }

    @Test("cancelPrefetching cancels every token")
    func cancelAllTokens() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = (0..<4).map { URL(string: "test://origin/hang-all\($0).png")! }
        for url in urls { loader.respond(to: url, with: .hang) }
        let prefetcher = ImagePrefetcher(manager: manager)
        let first = prefetcher.prefetchURLs(Array(urls[0..<2]))
        let second = prefetcher.prefetchURLs(Array(urls[2..<4]))
        prefetcher.cancelPrefetching()
        #expect(first?.isCancelled == true && second?.isCancelled == true)
        #expect(prefetcher.runningTokenCount == 0)
        #expect(await settles { !manager.isRunning })
    }

    @Test("cancelling every load mid-prefetch completes with the URLs skipped, without hanging")
    func cancelAllLoadsMidPrefetch() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = (0..<3).map { URL(string: "test://origin/stuck\($0).png")! }
        for url in urls { loader.respond(to: url, with: .hang) }
        let prefetcher = ImagePrefetcher(manager: manager)
        let log = PrefetchLog()
        prefetcher.prefetchURLs(urls, completed: log.completed)
        #expect(await settles { loader.totalRequests == 3 })
        manager.cancelAll()
        #expect(await settles { !log.completions.isEmpty })
        #expect(log.completions == [.completed(finished: 3, skipped: 3)])
    }

    @Test("the async variant returns the counts reached when its task is cancelled, and cancels the loads")
    func asyncCancellation() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = try PrefetchFixtures.urls(1, loader: loader) + [URL(string: "test://origin/never.png")!]
        loader.respond(to: urls[1], with: .hang)
        let prefetcher = ImagePrefetcher(manager: manager)
        prefetcher.maxConcurrentPrefetchCount = 1
        let task = Task { await prefetcher.prefetch(urls) }
        #expect(await settles { loader.requestCount(for: urls[1]) == 1 })
        task.cancel()
        let result = await task.value
        #expect(result == ImagePrefetchResult(finishedCount: 1, skippedCount: 0, totalCount: 2))
        #expect(await settles { !manager.isRunning })
        #expect(prefetcher.runningTokenCount == 0)
    }

    @Test("a concurrency below 1 means 1")
    func concurrencyFloor() throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let prefetcher = ImagePrefetcher(manager: manager)
        for value in [0, -5, Int.min] {
            prefetcher.maxConcurrentPrefetchCount = value
            #expect(prefetcher.maxConcurrentPrefetchCount == 1)
        }
    }
}
