import Foundation
import Synchronization
import Testing
import WebImageTestOrigin

@testable import WebImage

/// One load's callbacks: how many times it completed and with what.
private final class LoadRecord: Sendable {
    private struct State {
        var completions = 0
        var gotImage = false
        var error: WebImageError?
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())

    func complete(image: Image?, error: WebImageError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.completions += 1
            state.gotImage = state.gotImage || image != nil
            state.error = error
            defer { state.waiter = nil }
            return state.completions == 1 ? state.waiter : nil
        }
        waiter?.resume()
    }

    func waitForCompletion() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.completions > 0 { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    var completions: Int { state.withLock { $0.completions } }
    var gotImage: Bool { state.withLock { $0.gotImage } }
    var error: WebImageError? { state.withLock { $0.error } }
}

/// What the load workers share.
private final class LoadRun: Sendable {
    let next = Atomic<Int>(0)
    let peakMemoryCost = Atomic<Int>(0)
    let cancelled = Locked(Set<Int>())
}

@Suite("Load: many concurrent loads with random cancels")
struct LoadTests {
    static let loadCount = 10_000
    static let urlCount = 500
    static let workers = 64
    static let memoryLimit = 4 << 20

    @Test(
        "10,000 loads of 500 URLs, 64 at a time, a fifth cancelled: each completes once, memory stays bounded",
        .timeLimit(.minutes(5)))
    func tenThousandLoadsWithCancels() async throws {
        var cacheConfig = ImageCacheConfig()
        cacheConfig.maxMemoryCost = Self.memoryLimit
        let directory = temporaryURL("webimage-load")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try ImageCache(directory: directory, config: cacheConfig)
        let origin = try await TestOrigin.start()
        let downloader = ImageDownloader()
        let manager = ImageManager(cache: cache, loader: downloader)
        // 128×128 RGBA: 64 KiB decoded, so keeping every result would cost 640 MB.
        let urls = (0..<Self.urlCount).map { origin.url("/generated/128x128.png?seed=\($0)") }
        var random = SplitMix64(seed: 0x10AD)
        let plan = (0..<Self.loadCount).map { _ in
            (url: Int(random.next() % UInt64(Self.urlCount)), cancelAfter: Self.cancelDelay(&random))
        }
        let records = (0..<Self.loadCount).map { _ in LoadRecord() }
        let run = LoadRun()
        let residentBefore = residentBytes()

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.workers {
                group.addTask {
                    while true {
                        let index = run.next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard index < Self.loadCount else { return }
                        let record = records[index]
                        let operation = manager.loadImage(with: urls[plan[index].url]) { image, _, error, _, _, _ in
                            record.complete(image: image, error: error)
                        }
                        if let delay = plan[index].cancelAfter {
                            if delay > 0 { try? await Task.sleep(for: .microseconds(delay)) }
                            operation.cancel()
                            run.cancelled.withLock { _ = $0.insert(index) }
                        }
                        await record.waitForCompletion()
                        run.peakMemoryCost.max(cache.memoryCache.totalCost, ordering: .relaxed)
                    }
                }
            }
        }

        let cancelledLoads = run.cancelled.withLock { $0 }
        #expect(records.allSatisfy { $0.completions == 1 }, "a load completed more or less than once")
        let failed = records.indices.filter { !cancelledLoads.contains($0) && !records[$0].gotImage }
        #expect(failed.isEmpty, "\(failed.count) loads failed: \(failed.prefix(3).map { records[$0].error as Any })")
        let cancelledWithError = cancelledLoads.filter { records[$0].error == .cancelled }
        #expect(cancelledLoads.allSatisfy { records[$0].gotImage || records[$0].error == .cancelled })
        #expect(cancelledLoads.count > Self.loadCount / 10 && !cancelledWithError.isEmpty)

        #expect(await eventually { downloader.currentDownloadCount == 0 && !manager.isRunning })
        #expect(downloader.currentDownloadCount == 0)
        #expect(!manager.isRunning)
        #expect(manager.loads.count == 0, "a coalesced load outlived its callers")
        #expect(run.peakMemoryCost.load(ordering: .relaxed) <= Self.memoryLimit)
        #expect(origin.totalRequestCount <= Self.loadCount)
        // The working set is 64 loads of 64 KiB plus buffers; holding every decoded image would
        // add 640 MB. Other suites run in this process at the same time, hence the slack.
        let growth = residentBytes() - residentBefore
        #expect(growth < 300 << 20, "resident memory grew by \(growth >> 20) MiB")

        await downloader.shutdown()
        try await origin.shutdown()
    }

    /// Every fifth load is cancelled: at once, or after up to 2 ms (in flight, for some).
    private static func cancelDelay(_ random: inout SplitMix64) -> Int? {
        guard random.next() % 5 == 0 else { return nil }
        let delay = Int(random.next() % 2_000)
        return delay < 500 ? 0 : delay
    }
}
