import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Manual playback clock")
struct ManualPlaybackClockTests {
    @Test func advancingWakesOnlyTheSleepersWhoseDeadlineCame() async throws {
        let clock = ManualPlaybackClock()
        let woken = Locked<[Int]>([])
        let sleepers = (1...3).map { seconds in
            Task {
                try await clock.sleep(until: .seconds(seconds))
                woken.withLock { $0.append(seconds) }
            }
        }
        await clock.waitForSleepers(3)
        #expect(clock.nextDeadline == .seconds(1))
        clock.advance(by: .milliseconds(2500))
        try await sleepers[0].value
        try await sleepers[1].value
        #expect(woken.withLock { $0.sorted() } == [1, 2])
        #expect(clock.sleeperCount == 1)
        clock.advance(to: .seconds(1))  // never backwards
        #expect(clock.now == .milliseconds(2500))
        clock.advance(to: .seconds(3))
        try await sleepers[2].value
        #expect(woken.withLock { $0.sorted() } == [1, 2, 3])
    }

    @Test func aDeadlineThatPassedReturnsAtOnce() async throws {
        let clock = ManualPlaybackClock(now: .seconds(5))
        try await clock.sleep(until: .seconds(4))
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperThrowsAndRemovesIt() async throws {
        let clock = ManualPlaybackClock()
        let sleeper = Task { try await clock.sleep(until: .seconds(10)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func theContinuousClockSleepsUntilItsDeadline() async throws {
        let clock = ContinuousPlaybackClock()
        let deadline = clock.now + .milliseconds(20)
        try await clock.sleep(until: deadline)
        #expect(clock.now >= deadline)
    }
}
