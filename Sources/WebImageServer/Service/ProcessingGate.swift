import Foundation
import WebImage

/// How many results are made at once, and how long a request may wait its turn: decoding,
/// processing and encoding run in at most ``slots`` runs; up to ``queueLimit`` more wait in
/// order; a run that finds the line full is refused at once (429), and one that waits longer
/// than ``timeout`` gives up (503). Cached results never pass through here.
final class ProcessingGate: Sendable {
    let slots: Int
    let queueLimit: Int
    let timeout: Duration

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running = 0
        var waiters: [Waiter] = []
        /// Waiters counted against the line before their continuation is registered.
        var arriving: Set<UInt64> = []
        /// Waiters that gave up before they were in line: they do not join it.
        var gaveUpEarly: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    init(slots: Int, queueLimit: Int, timeout: Duration) {
        self.slots = max(1, slots)
        self.queueLimit = max(0, queueLimit)
        self.timeout = timeout
    }

    /// Runs taking a slot, and runs waiting for one.
    var counts: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiters.count + $0.arriving.count) }
    }

    /// Runs `body` in a slot, waiting for one in line if all are taken.
    func withSlot<T>(_ body: () async throws(ServiceError) -> T) async throws(ServiceError) -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private enum Decision {
        case run
        case full
        case wait(UInt64)
    }

    func acquire() async throws(ServiceError) {
        let decision = state.withLock { state -> Decision in
            if state.running < slots {
                state.running += 1
                return .run
            }
            guard state.waiters.count + state.arriving.count < queueLimit else { return .full }
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return .wait(state.nextID)
        }
        switch decision {
        case .run:
            return
        case .full:
            throw ServiceError(status: 429, message: "too many requests are waiting; try again later")
        case .wait(let id):
            let timer = Task { [timeout] in
                try? await Task.sleep(for: timeout)
                self.giveUp(id)
            }
            let granted = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let answer = state.withLock { state -> Bool? in
                        state.arriving.remove(id)
                        if state.gaveUpEarly.remove(id) != nil { return false }
                        if state.running < slots {
                            state.running += 1
                            return true
                        }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        return nil
                    }
                    if let answer { continuation.resume(returning: answer) }
                }
            } onCancel: {
                self.giveUp(id)
            }
            timer.cancel()
            guard granted else {
                if Task.isCancelled { throw ServiceError(status: 499, message: "the request was cancelled") }
                throw ServiceError(status: 503, message: "the request waited too long for processing")
            }
        }
    }

    /// Hands the slot to the first waiter, or frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiters.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume(returning: true)
    }

    /// Takes waiter `id` out of line (timed out or cancelled); nothing if it already has a slot.
    private func giveUp(_ id: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                // Not in line yet: it will see this when it arrives. (Once granted, it is never
                // in line again, and its timer is cancelled.)
                if state.arriving.contains(id) { state.gaveUpEarly.insert(id) }
                return nil
            }
            return state.waiters.remove(at: index).continuation
        }
        continuation?.resume(returning: false)
    }
}
