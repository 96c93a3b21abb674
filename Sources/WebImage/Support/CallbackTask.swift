/// The state behind a callback-shaped operation: the task doing the work, and a completion that
/// gets its terminal call exactly once, whether the work ends first or the caller cancels first.
final class CallbackTask<Output: Sendable>: Sendable {
    typealias Completion = @Sendable (Output) -> Void

    private struct State {
        var completion: Completion?
        var task: Task<Void, Never>?
        var cancelled = false
    }

    /// Every mutable field sits behind this lock; the completion runs outside it.
    private let state: Locked<State>

    init(completion: @escaping Completion) {
        state = Locked(State(completion: completion))
    }

    /// Whether ``cancel(reporting:)`` was called.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the task and, unless the terminal call already ran, makes it now with `output`.
    /// Later deliveries are dropped.
    func cancel(reporting output: Output) {
        let (completion, task) = state.withLock { state in
            state.cancelled = true
            defer {
                state.completion = nil
                state.task = nil
            }
            return (state.completion, state.task)
        }
        task?.cancel()
        completion?(output)
    }

    /// Keeps `task` to cancel later, or cancels it now if the caller has already cancelled.
    func attach(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.task = task }
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Calls the completion with `output`, unless the terminal call already ran. A terminal
    /// delivery is the last one.
    func deliver(_ output: Output, isTerminal: Bool = true) {
        let completion = state.withLock { state -> Completion? in
            let taken = state.completion
            if isTerminal {
                state.completion = nil
                state.task = nil
            }
            return taken
        }
        completion?(output)
    }
}
