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
/// (at most a twentieth of the shortest timeout apart). The task ends when nothing is watched.
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
        // On the network threads, with the transfers whose bodies it watches: neither waits
        // behind CPU work (that runs on the CPU threads) or a host that blocks Swift's
        // cooperative pool, so an attempt is called idle only when its bytes stopped coming.
        if startMonitor {
            Task.detached(executorPreference: ThreadPoolExecutor.network, priority: .low) { [self] in await monitor() }
        }
        return id
    }

    func unwatch(_ id: Int) {
        _ = state.withLock { $0.watches.removeValue(forKey: id) }
    }

    private func monitor() async {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (expired, period) = state.withLock { state -> ([(Watch, byDeadline: Bool)], UInt64?) in
                var expired: [(Watch, byDeadline: Bool)] = []
                var shortest = UInt64.max
                for (id, watch) in state.watches {
                    if let deadline = watch.deadline, now >= deadline {
                        expired.append((watch, byDeadline: true))
                        state.watches[id] = nil
                    } else if watch.activity.idleNanoseconds >= watch.limit {
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
                return (expired, min(max(shortest / Self.looksPerTimeout, 2_000_000), 250_000_000))
            }
            for (watch, byDeadline) in expired {
                watch.activity.markTimedOut(byDeadline: byDeadline)
                watch.onTimeout()
            }
            guard let period else { return }
            try? await Task.sleep(nanoseconds: period)
        }
    }

    /// How often the monitor looks within the shortest timeout it watches: a timeout fires at
    /// most a twentieth of itself late (and at most 250 ms).
    private static let looksPerTimeout: UInt64 = 20
}
