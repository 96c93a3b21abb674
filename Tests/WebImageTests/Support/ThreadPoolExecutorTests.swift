import Foundation
import Synchronization
import Testing

@testable import WebImage

/// The CPU threads: where decoding, transforming and encoding run, and the rule that an image is
/// split across threads only while threads stand idle.
@Suite("ThreadPoolExecutor: the CPU threads")
struct ThreadPoolExecutorTests {
    /// A pool made for one test, shut down after it.
    static func withPool<T>(threads: Int, _ body: (ThreadPoolExecutor) async throws -> T) async rethrows -> T {
        let pool = ThreadPoolExecutor(threads: threads, name: "test")
        defer { pool.shutdown() }
        // Every thread started and waiting, as in a pool that has been up for a while.
        while pool.idleThreadCount < threads { try? await Task.sleep(for: .milliseconds(1)) }
        return try await body(pool)
    }

    /// The distinct threads `concurrentPerform` used for `iterations` indices that each take
    /// about a millisecond.
    /// Each index writes its own slot, read once `concurrentPerform` has returned (the pool's
    /// lock orders the two). Not a `Mutex`: on Linux it waits on a futex, which
    /// ThreadSanitizer cannot see, so it reported the set's accesses as a race.
    static func threadsUsed(_ pool: ThreadPoolExecutor, iterations: Int) -> Int {
        nonisolated(unsafe) let slots = UnsafeMutableBufferPointer<UInt>.allocate(capacity: iterations)
        slots.initialize(repeating: 0)
        defer { slots.deallocate() }
        pool.concurrentPerform(iterations: iterations) { index in
            slots[index] = UInt(pthread_self())
            usleep(1000)
        }
        #expect(!slots.contains(0), "every index ran")
        return Set(slots).count
    }

    @Test func runRunsTheBodyOnAPoolThreadAndReturnsItsValue() async {
        await Self.withPool(threads: 2) { pool in
            let busy = await pool.run { pool.busyThreadCount }
            #expect(busy == 1, "the body runs on one of the pool's threads")
            // The thread counts itself idle just after it resumes the caller.
            #expect(await eventually { pool.busyThreadCount == 0 })
            let current = await pool.run { ThreadPoolExecutor.current === pool }
            #expect(current)
            await #expect(throws: WebImageError.cancelled) {
                try await pool.run { () throws(WebImageError) in throw .cancelled }
            }
            #expect(ThreadPoolExecutor.current == nil)
        }
    }

    @Test func aLoneImageUsesEveryThreadOfThePool() async {
        await Self.withPool(threads: 3) { pool in
            let used = await pool.run { Self.threadsUsed(pool, iterations: 60) }
            #expect(used == 3)
        }
    }

    @Test func underLoadAnImageUsesOneThread() async {
        await Self.withPool(threads: 3) { pool in
            // Two of the three threads run images of their own until released.
            let release = DispatchSemaphore(value: 0)
            let busy = Atomic(0)
            for _ in 0..<2 {
                pool.execute {
                    busy.add(1, ordering: .relaxed)
                    release.wait()
                }
            }
            while busy.load(ordering: .relaxed) < 2 { usleep(1000) }
            let used = await pool.run { Self.threadsUsed(pool, iterations: 60) }
            #expect(used == 1)
            // The thread that ran the job goes back to waiting just after the caller resumes
            // (under ThreadSanitizer that took longer than the next line).
            let deadline = ContinuousClock.now + .seconds(5)
            while pool.availableParallelism < 2 && ContinuousClock.now < deadline { usleep(1000) }
            #expect(pool.availableParallelism == 2, "the caller's thread is free again, and one more")
            release.signal()
            release.signal()
        }
    }

    @Test func aBorrowedThreadReturnsToWorkThatArrives() async {
        await Self.withPool(threads: 2) { pool in
            let arrived = Atomic(false)
            let startedAfterArrival = Atomic(-1)
            let seen = Atomic(0)
            await pool.run {
                pool.concurrentPerform(iterations: 200) { index in
                    if index == 20 {
                        // Another image arrives while this one has borrowed the second thread.
                        pool.execute {
                            startedAfterArrival.store(seen.load(ordering: .relaxed), ordering: .relaxed)
                        }
                        arrived.store(true, ordering: .relaxed)
                    }
                    seen.add(1, ordering: .relaxed)
                    usleep(500)
                }
            }
            let didArrive = arrived.load(ordering: .relaxed)
            #expect(didArrive)
            // It started long before the 200 indices were done: within an index or two of each thread.
            let started = startedAfterArrival.load(ordering: .relaxed)
            #expect(started >= 0 && started < 30, "started after \(started) indices")
        }
    }

    /// Short loops end before their helpers wake: a helper still queued then must not keep the
    /// body, which the caller passed as a non-escaping closure (the runtime traps if it escaped).
    @Test func helpersThatWakeAfterTheLoopEndedTouchNothing() async {
        await Self.withPool(threads: 2) { pool in
            let total = Atomic(0)
            for _ in 0..<20_000 {
                pool.concurrentPerform(iterations: 2) { _ in total.add(1, ordering: .relaxed) }
            }
            #expect(total.load(ordering: .relaxed) == 40_000)
        }
    }

    @Test func theLibrarysResamplerAndBlurFollowTheRule() async throws {
        try await Self.withPool(threads: 2) { pool in
            let bitmap = ImageBitmap(width: 1200, height: 1000, fill: RGBA8(r: 10, g: 200, b: 30, a: 255))
            let alone = try await pool.run { () throws(WebImageError) in
                try bitmap.resampled(to: PixelSize(width: 300, height: 250))
            }
            let release = DispatchSemaphore(value: 0)
            let busy = Atomic(false)
            pool.execute {
                busy.store(true, ordering: .relaxed)
                release.wait()
            }
            while !busy.load(ordering: .relaxed) { usleep(1000) }
            let loaded = try await pool.run { () throws(WebImageError) -> (ImageBitmap, Int) in
                (try bitmap.resampled(to: PixelSize(width: 300, height: 250)), pool.availableParallelism)
            }
            release.signal()
            #expect(loaded.0 == alone, "the same pixels either way")
            #expect(loaded.1 == 1, "no idle thread to borrow while the other runs an image")
        }
    }
}
