import WebImage

@testable import WebImage

/// A one-way gate for tests: tasks wait at it until it is opened, then pass at once.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Waits until the gate is open (returns at once if it already is).
    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if open { continuation.resume() }
        }
    }

    /// Opens the gate and lets every waiter through.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Tasks waiting now.
    var waiting: Int { state.withLock { $0.waiters.count } }
}
