import Foundation
import Testing

@testable import WebImage

/// SDWebImage's `cacheOperation` and `loaderOperation`: which stage a callback load is in, and
/// a handle that cancels it from there.
@Suite("CombinedOperation: cacheOperation and loaderOperation")
struct CombinedOperationStageTests {
    /// Decodes its bytes once its gate opens; counts its loads.
    final class GatedLoader: ImageLoading {
        let gate = Gate()
        let data: Data
        private let loads = Locked(0)
        var loadCount: Int { loads.withLock { $0 } }

        init(data: Data) { self.data = data }

        func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool { true }

        func loadImage(
            with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
        ) async throws(WebImageError) -> ImageLoadResult {
            loads.withLock { $0 += 1 }
            await gate.wait()
            if Task.isCancelled { throw .cancelled }
            let image = try ImageLoaderDecoding.decode(data, url: url, options: options, context: context)
            return ImageLoadResult(image: image, data: data, isFinished: true)
        }
    }

    private let url = URL(string: "test://origin/stages.jpg")!

    private func make() throws -> (ImageManager, GatedLoader, FakeDiskCache) {
        let loader = GatedLoader(data: try ManagerFixtures.jpeg())
        let disk = FakeDiskCache(holdingReads: true)
        let manager = ImageManager(cache: ImageCache(memoryCache: MemoryCache(), diskCache: disk), loader: loader)
        return (manager, loader, disk)
    }

    @Test func cacheOperationIsLiveDuringTheCacheQueryThenLoaderOperationUntilTheLoadEnds() async throws {
        let (manager, loader, disk) = try make()
        let log = CompletionLog()
        let operation = manager.loadImage(with: url, completed: log.completion)
        #expect(await eventually { disk.heldReads == 1 })
        #expect(operation.cacheOperation === operation)
        #expect(operation.loaderOperation == nil)

        disk.release()
        #expect(await eventually { loader.loadCount == 1 && operation.loaderOperation != nil })
        #expect(operation.cacheOperation == nil)

        loader.gate.open()
        try await log.waitForFinished()
        #expect(log.all.first?.image?.width == 800)
        #expect(operation.cacheOperation == nil)
        #expect(operation.loaderOperation == nil)
    }

    @Test func cancellingTheCacheOperationCancelsTheLoadBeforeTheLoaderRuns() async throws {
        let (manager, loader, disk) = try make()
        let log = CompletionLog()
        let operation = manager.loadImage(with: url, completed: log.completion)
        #expect(await eventually { disk.heldReads == 1 })
        let cacheOperation = try #require(operation.cacheOperation)
        cacheOperation.cancel()
        #expect(operation.isCancelled)
        #expect(cacheOperation.isCancelled)
        try await log.waitForFinished()
        #expect(log.all.first?.error == .cancelled)
        #expect(operation.cacheOperation == nil)
        disk.release()
        loader.gate.open()
        // The held read returns into a cancelled load: the loader is never asked.
        try await Task.sleep(for: .milliseconds(50))
        #expect(loader.loadCount == 0)
    }

    @Test func cancellingTheLoaderOperationCancelsTheLoad() async throws {
        let (manager, loader, disk) = try make()
        disk.release()
        let log = CompletionLog()
        let operation = manager.loadImage(with: url, completed: log.completion)
        #expect(await eventually { operation.loaderOperation != nil })
        operation.loaderOperation?.cancel()
        try await log.waitForFinished()
        #expect(log.all.map(\.error) == [.cancelled])
        #expect(operation.loaderOperation == nil)
        loader.gate.open()
    }

    @Test func aLoadThatJoinsARunningLoadReportsTheStageThatLoadIsIn() async throws {
        let (manager, loader, disk) = try make()
        disk.release()
        let first = manager.loadImage(with: url, completed: CompletionLog().completion)
        #expect(await eventually { first.loaderOperation != nil })
        let log = CompletionLog()
        let joining = manager.loadImage(with: url, completed: log.completion)
        #expect(await eventually { joining.loaderOperation != nil })
        #expect(joining.cacheOperation == nil)
        loader.gate.open()
        try await log.waitForFinished()
        #expect(loader.loadCount == 1)
        #expect(log.all.first?.image != nil)
    }
}
