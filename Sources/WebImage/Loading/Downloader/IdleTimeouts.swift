import Foundation
import Synchronization

/// The last moment bytes moved in one attempt, and whether its idle timeout or its overall
/// deadline fired.
final class IdleActivity: Sendable {
    private let last = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
    private let expired = Atomic<Bool>(false)
    private let pastDeadline = Atomic<Bool>(false)
    /// When the attempt started, for its overall deadline.
    let startNanoseconds = DispatchTime.now().uptimeNanoseconds

    func touch() { last.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }

    var idleNanoseconds: UInt64 {
        let now = DispatchTime.now().uptimeNanoseconds
        let then = last.load(ordering: .relaxed)
        return now > then ? now - then : 0
    }

    /// Whether a timeout fired (the attempt was interrupted because of it).
    var timedOut: Bool { expired.load(ordering: .acquiring) }
    /// Whether the timeout that fired was the overall deadline, not the idle one.
    var exceededDeadline: Bool { pastDeadline.load(ordering: .acquiring) }

    fileprivate func markTimedOut(byDeadline: Bool) {
        if byDeadline { pastDeadline.store(true, ordering: .releasing) }
        expired.store(true, ordering: .releasing)
    }
}

/// The idle timeouts of one downloader's running attempts, checked by a single timer task.
///
/// AsyncHTTPClient's own read timeout cancels and re-arms an event-loop timer on every body
/// chunk, a visible share of a download-heavy workload's CPU time; here an attempt only
/// stamps the time on each chunk, and one task looks at every attempt a few times a second
/// (at most an eighth of the shortest timeout apart). The task ends when nothing is watched.
final class IdleTimeouts: Sendable {
    private struct Watch {
        let activity: IdleActivity
        let limit: UInt64
        /// Uptime after which the attempt fails however steadily bytes arrive; nil: none.
        let deadline: UInt64?
        let onTimeout: @Sendable () -> Void
    }

    private struct State {
        var watches: [Int: Watch] = [:]
        var nextID = 0
        var monitorRunning = false
    }

    private let state = Locked(State())

    /// Starts watching an attempt; `onTimeout` runs once if `activity` sees nothing for
    /// `timeout` seconds, or once the attempt has run for `totalTimeout` seconds (a server
    /// dripping a byte now and then never trips the idle timeout), before ``unwatch(_:)``.
    func watch(
        _ activity: IdleActivity, timeout: TimeInterval, totalTimeout: TimeInterval? = nil,
        onTimeout: @escaping @Sendable () -> Void
    ) -> Int {
        let limit = UInt64(clamping: timeout.clamped(to: 0.001...86_400) * 1_000_000_000)
        let deadline = totalTimeout.map {
            activity.startNanoseconds + UInt64(clamping: $0.clamped(to: 0.001...86_400) * 1_000_000_000)
        }
        let (id, startMonitor) = state.withLock { state -> (Int, Bool) in
            state.nextID += 1
            state.watches[state.nextID] = Watch(
                activity: activity, limit: limit, deadline: deadline, onTimeout: onTimeout)
            defer { state.monitorRunning = true }
            return (state.nextID, !state.monitorRunning)
        }
        // The lowest priority a transfer runs at: the monitor then looks only after the tasks
        // that receive the bodies had their turn on the thread pool, so chunks that arrived
        // while the pool was busy are counted before an attempt is called idle. At `.high` it
        // ran first and timed out transfers whose bytes were waiting in their receiver's queue
        // (a steady 100 ms drip failed a 3 s timeout under a loaded test run).
        if startMonitor { Task.detached(priority: .low) { [self] in await monitor() } }
        return id
    }

    func unwatch(_ id: Int) {
        _ = state.withLock { $0.watches.removeValue(forKey: id) }
    }

    private func monitor() async {
        var expectedWake: UInt64?
        var skippingSince: UInt64?
        while true {
            // Attempts stamp their activity from tasks on the same thread pool as this one. If
            // this task woke much later than it asked to, the pool was busy (blocking work
            // elsewhere in the process) and the attempts' tasks were probably waiting too, with
            // their bytes already received: look again once they had a chance to run rather
            // than time out a transfer that never stalled. Never for longer than the shortest
            // timeout in a row, so a real stall still ends on a machine that stays overloaded.
            let now = DispatchTime.now().uptimeNanoseconds
            let late = expectedWake.map { now > $0 && now - $0 > Self.starvationSlack } ?? false
            if !late { skippingSince = nil } else if skippingSince == nil { skippingSince = now }
            let skipped = skippingSince.map { now - $0 } ?? 0
            let (expired, period) = state.withLock { state -> ([(Watch, byDeadline: Bool)], UInt64?) in
                var expired: [(Watch, byDeadline: Bool)] = []
                var shortest = UInt64.max
                for (id, watch) in state.watches {
                    let skip = late && skipped < watch.limit
                    if let deadline = watch.deadline, now >= deadline {
                        expired.append((watch, byDeadline: true))
                        state.watches[id] = nil
                    } else if !skip, watch.activity.idleNanoseconds >= watch.limit {
                        expired.append((watch, byDeadline: false))
                        state.watches[id] = nil
                    } else {
                        shortest = min(shortest, watch.limit)
                    }
                }
                guard !state.watches.isEmpty else {
                    state.monitorRunning = false
                    return (expired, nil)
                }
                return (expired, min(max(shortest / 8, 2_000_000), 250_000_000))
            }
            for (watch, byDeadline) in expired {
                watch.activity.markTimedOut(byDeadline: byDeadline)
                watch.onTimeout()
            }
            guard let period else { return }
            expectedWake = DispatchTime.now().uptimeNanoseconds + period
            try? await Task.sleep(nanoseconds: period)
        }
    }

    /// How late the monitor may wake before it assumes the thread pool was starved: 100 ms.
    private static let starvationSlack: UInt64 = 100_000_000
}
