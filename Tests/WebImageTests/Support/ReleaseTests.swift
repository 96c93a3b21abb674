import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImageServer

@testable import WebImage

/// Objects are freed once their work ends and their owner lets go: nothing keeps itself alive
/// through a reference cycle. A leak here grows a long-running process by one object graph per
/// call (LeakSanitizer found the prefetcher's).
@Suite("Release: finished work frees what it used")
struct ReleaseTests {
    /// Weak references to what a scenario made, to check once the scenario returned.
    final class Watch: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(name: String, get: () -> AnyObject?)] = []

        func watch(_ object: AnyObject, _ name: String) {
            weak let weak = object
            lock.withLock { entries.append((name, { weak })) }
        }

        /// The names of the watched objects still alive.
        var alive: [String] { lock.withLock { entries.filter { $0.get() != nil }.map(\.name) } }
    }

    /// Runs `scenario` with a prefetcher over a fresh manager, then expects the token it returns,
    /// the prefetcher and the manager to be freed once the scenario has let go of them.
    static func expectPrefetchFreed(
        _ scenario: (ImagePrefetcher, ScriptedLoader) async throws -> ImagePrefetchToken
    ) async throws {
        let watch = Watch()
        try await {
            let (manager, loader, _, _) = try ManagerFixtures.make()
            let prefetcher = ImagePrefetcher(manager: manager)
            let token = try await scenario(prefetcher, loader)
            watch.watch(token, "token")
            watch.watch(prefetcher, "prefetcher")
            watch.watch(manager, "manager")
        }()
        #expect(await settles { watch.alive.isEmpty }, "still alive: \(watch.alive)")
    }

    @Test("a finished prefetch frees its token, its prefetcher and the manager")
    func finishedPrefetch() async throws {
        try await Self.expectPrefetchFreed { prefetcher, loader in
            let log = PrefetchLog()
            let token = try #require(
                prefetcher.prefetchURLs(try PrefetchFixtures.urls(3, loader: loader), completed: log.completed))
            #expect(await settles { log.completions == [.completed(finished: 3, skipped: 0)] })
            return token
        }
    }

    @Test("a prefetch cancelled midway frees its token, its prefetcher and the manager")
    func cancelledPrefetch() async throws {
        try await Self.expectPrefetchFreed { prefetcher, loader in
            prefetcher.maxConcurrentPrefetchCount = 2
            let token = try #require(prefetcher.prefetchURLs(try PrefetchFixtures.urls(6, loader: loader, delay: 50)))
            #expect(await settles { loader.totalRequests >= 1 })
            token.cancel()
            #expect(await settles { prefetcher.runningTokenCount == 0 })
            return token
        }
    }

    @Test("a downloader and a manager over it are freed after their loads and the shutdown")
    func downloaderAndManager() async throws {
        let watch = Watch()
        try await ManagerOriginFixture.run { fixture in
            let url = fixture.origin.url(ManagerOriginFixture.pngPath)
            let loaded = try await fixture.manager.loadImage(with: url)
            #expect(loaded.image.width > 0)
            let failed = await DownloaderTestSupport.download(
                fixture.downloader, fixture.origin.url(ManagerOriginFixture.pngPath + "?status=404"))
            #expect(failed.error != nil)
            watch.watch(fixture.manager, "manager")
            watch.watch(fixture.downloader, "downloader")
            watch.watch(fixture.cache, "cache")
        }
        #expect(await eventually { watch.alive.isEmpty }, "still alive: \(watch.alive)")
    }

    @Test("a prefix download lets go of its subscription, whether the prefix sufficed or the body ended")
    func prefixDownload() async throws {
        try await DownloaderTestSupport.withOrigin { origin, downloader in
            let path = DownloaderTestSupport.jpegPath
            let size = try DownloaderTestSupport.fixtureSize("jpeg/photo_800x600.jpg")
            // Dripped, so that the first bytes suffice long before the body ends.
            let prefix = try await downloader.downloadPrefix(with: origin.url(path + "?drip=4096:5")) { !$0.isEmpty }
            #expect(!prefix.isComplete && !prefix.data.isEmpty && prefix.data.count < size)
            let whole = try await downloader.downloadPrefix(with: origin.url(path)) { _ in false }
            #expect(whole.isComplete && whole.data.count == size)
            #expect(
                await eventually { downloader.transfers.liveSubscriptionCount == 0 },
                "subscriptions still held: \(downloader.transfers.liveSubscriptionCount)")
        }
    }

    @Test("a download token that fails before it is handed back keeps no subscription")
    func downloadRefusedAtOnce() async throws {
        try await DownloaderTestSupport.withOrigin { origin, downloader in
            downloader.headersFilter = { _, _ in nil }
            for index in 0..<50 {
                let result = await DownloaderTestSupport.download(
                    downloader, origin.url(DownloaderTestSupport.pngPath + "?n=\(index)"))
                #expect(result.error?.code == 2000)
            }
            #expect(
                await eventually { downloader.decodes.liveSubscriptionCount == 0 },
                "subscriptions still held: \(downloader.decodes.liveSubscriptionCount)")
        }
    }

    @Test("a service is freed after it served requests and shut down")
    func service() async throws {
        let watch = Watch()
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        try await withServingImageService(configuration) { service, client, origin in
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg").absoluteString
            let failing = origin.url("/fixtures/jpeg/missing.jpg").absoluteString
            var statuses: [HTTPResponse.Status] = []
            for source in [source, source, failing] {
                statuses.append(
                    try await client.execute(uri: "/unsafe/rs:fit:40:40/plain/\(source)", method: .get) { $0.status })
            }
            #expect(statuses.prefix(2) == [.ok, .ok], "a result made, then served from the result cache")
            #expect(statuses.last != .ok, "a failing source")
            watch.watch(service, "service")
        }
        #expect(await eventually { watch.alive.isEmpty }, "still alive: \(watch.alive)")
    }
}
