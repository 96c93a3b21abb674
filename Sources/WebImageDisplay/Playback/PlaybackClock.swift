import Foundation
import WebImage

/// The time source an ``AnimatedImagePlayer`` schedules frames by.
///
/// Times are durations since the clock's own origin. Inject ``ManualPlaybackClock`` to play on
/// virtual time (tests, offline rendering of previews); the default is ``ContinuousPlaybackClock``.
public protocol PlaybackClock: Sendable {
    /// The current time.
    var now: Duration { get }
    /// Suspends until ``now`` reaches `deadline`; throws `CancellationError` if the task is
    /// cancelled first.
    func sleep(until deadline: Duration) async throws
}

/// Wall-clock time that keeps running while the machine sleeps (`ContinuousClock`).
public struct ContinuousPlaybackClock: PlaybackClock {
    private let origin: ContinuousClock.Instant

    public init() { origin = .now }

    public var now: Duration { ContinuousClock.now - origin }

    public func sleep(until deadline: Duration) async throws {
        try await Task.sleep(until: origin + deadline, clock: .continuous)
    }
}

/// A clock that moves only when told to: ``advance(by:)`` wakes every sleeper whose deadline has
/// come, in deadline order.
///
/// ``waitForSleepers(_:)`` lets a test wait until the code it drives has done its work and gone
/// back to sleep, so a test on virtual time is deterministic.
public final class ManualPlaybackClock: PlaybackClock {
    private struct Sleeper {
        let id: Int
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var nextID = 0
        var sleepers: [Sleeper] = []
        var cancelledIDs: Set<Int> = []
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// Every property behind this lock.
    private let state = Locked(State())

    /// A clock at `now`.
    public init(now: Duration = .zero) {
        state.withLock { $0.now = now }
    }

    public var now: Duration { state.withLock { $0.now } }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline anyone sleeps until, if anyone does.
    public var nextDeadline: Duration? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    public func sleep(until deadline: Duration) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, waiters) = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledIDs.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, Self.takeSatisfiedWaiters(&state))
                }
                if let outcome { continuation.resume(with: outcome) }
                for waiter in waiters { waiter.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledIDs.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // An id cancelled after it already woke must not linger.
        _ = state.withLock { $0.cancelledIDs.remove(id) }
    }

    /// Moves time forward by `interval` and wakes the sleepers whose deadline has come.
    public func advance(by interval: Duration) {
        advance(to: now + interval)
    }

    /// Moves time to `instant` (never backwards) and wakes the sleepers whose deadline has come.
    public func advance(to instant: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, instant)
            let due = state.sleepers.filter { $0.deadline <= state.now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on this clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }
}
