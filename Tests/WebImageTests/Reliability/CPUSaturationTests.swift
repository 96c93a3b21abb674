import Foundation
import Synchronization
import Testing
import WebImageTestOrigin

@testable import WebImage

/// With every CPU thread busy decoding, the network and its timers still run on time: they have
/// Swift's cooperative pool to themselves. This suite occupies the process's shared CPU threads,
/// which every other suite decodes on, so it runs alone, with the load test (scripts/test).
@Suite(
    "Timeouts fire on time while every CPU thread is busy",
    .enabled(if: ProcessInfo.processInfo.environment["WEBIMAGE_LOAD_TEST"] == "1"))
struct CPUSaturationTests {
    /// Keeps every thread of the shared pool spinning, with as many jobs again waiting behind
    /// them, until the returned stop is called.
    static func saturate() -> @Sendable () -> Void {
        let pool = ThreadPoolExecutor.cpu
        let stop = Atomic(false)
        let running = Atomic(0)
        for _ in 0..<(2 * pool.threadCount) {
            pool.execute {
                running.add(1, ordering: .relaxed)
                var x: UInt64 = 1
                while !stop.load(ordering: .relaxed) {
                    for _ in 0..<10_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                }
                if x == 0 { print("unreachable") }
            }
        }
        while running.load(ordering: .relaxed) < pool.threadCount { usleep(1000) }
        return { stop.store(true, ordering: .relaxed) }
    }

    /// The time `download` takes to fail with a timeout, which it must.
    static func timeToFail(_ download: () async throws(WebImageError) -> Data) async -> Duration? {
        let start = ContinuousClock.now
        do throws(WebImageError) {
            _ = try await download()
            Issue.record("the download should have timed out")
            return nil
        } catch {
            #expect(error.transferKind == .timedOut, "\(error)")
            return ContinuousClock.now - start
        }
    }

    @Test func anIdleTimeoutAndAnOverallTimeoutFireWithinTenPercentOfTheirDeadlines() async throws {
        let stop = Self.saturate()
        defer { stop() }
        #expect(ThreadPoolExecutor.cpu.idleThreadCount == 0)
        try await withOrigin { origin in
            var config = ImageDownloaderConfig()
            config.retryPolicy = .none
            config.downloadTimeout = 2
            config.resourceTimeout = 2
            let downloader = ImageDownloader(config: config)
            // Headers, then nothing: the idle timeout.
            let idle = await Self.timeToFail { () throws(WebImageError) in
                try await downloader.downloadData(with: origin.url("/fixtures/jpeg/photo_800x600.jpg?stall=1"))
            }
            // A byte every 100 ms, never idle: the overall timeout.
            let slow = await Self.timeToFail { () throws(WebImageError) in
                try await downloader.downloadData(with: origin.url("/fixtures/jpeg/photo_800x600.jpg?drip=1:100"))
            }
            #expect(ThreadPoolExecutor.cpu.idleThreadCount == 0, "the CPU threads stayed busy throughout")
            for (name, elapsed) in [("idle", idle), ("overall", slow)] {
                let elapsed = try #require(elapsed)
                #expect(elapsed >= .seconds(2) && elapsed <= .milliseconds(2200), "\(name) timeout after \(elapsed)")
            }
            await downloader.shutdown()
        }
    }
}
