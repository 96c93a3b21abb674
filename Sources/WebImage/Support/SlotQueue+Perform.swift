extension SlotQueue {
    /// Why ``perform(lane:priority:_:)`` did not run its body.
    package enum Refusal: Error, Equatable {
        /// The line already held ``SlotQueue/waitingLimit`` jobs.
        case full
        /// The job waited ``SlotQueue/waitLimit`` without getting a slot.
        case expired
        /// The calling task was cancelled first (or while the body ran: its result is dropped).
        case cancelled
    }

    /// Waits in `lane`'s line for a slot, runs `body` in it (in the queue's worker task) and
    /// returns its value. Cancelling the calling task takes the job out of line, or interrupts
    /// the running body's task and returns at once; the slot stays taken until the body ends.
    package func perform<T: Sendable>(
        lane: Int = 0, priority: Priority = .normal, _ body: @escaping @Sendable () async -> T
    ) async throws(Refusal) -> T {
        if Task.isCancelled { throw .cancelled }
        let waiter = PerformWaiter<T>()
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                waiter.wait(continuation)
                let ticket = tryEnqueue(
                    priority: priority, runPriority: Task.currentPriority, lane: lane,
                    work: { job in
                        guard waiter.started(job) else { return }
                        waiter.finish(.success(await body()))
                    },
                    onExpired: { waiter.finish(.failure(.expired)) })
                guard let ticket else {
                    waiter.finish(.failure(.full))
                    return
                }
                waiter.queued(ticket, in: self)
            }
        } onCancel: {
            waiter.cancel()
        }
        return try result.get()
    }
}

/// One ``SlotQueue/perform(lane:priority:_:)`` call: its continuation, resumed exactly once,
/// and what cancelling it must undo (its place in line, or its running job).
private final class PerformWaiter<T: Sendable>: Sendable {
    private struct State {
        var continuation: UnsafeContinuation<Result<T, SlotQueue.Refusal>, Never>?
        var ticket: SlotQueue.Ticket?
        var queue: SlotQueue?
        var job: SlotQueue.Job?
        var cancelled = false
        var finished = false
    }

    private let state = Locked(State())

    func wait(_ continuation: UnsafeContinuation<Result<T, SlotQueue.Refusal>, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Records where the job waits; leaves at once if the caller was cancelled meanwhile.
    func queued(_ ticket: SlotQueue.Ticket, in queue: SlotQueue) {
        let leave = state.withLock { state in
            state.ticket = ticket
            state.queue = queue
            return state.cancelled
        }
        if leave, queue.leave(ticket) { finish(.failure(.cancelled)) }
    }

    /// The job got its slot; false if the caller is gone (the body is skipped).
    func started(_ job: SlotQueue.Job) -> Bool {
        let proceed = state.withLock { state in
            state.job = job
            return !state.cancelled
        }
        if !proceed { finish(.failure(.cancelled)) }
        return proceed
    }

    func cancel() {
        let (ticket, queue, job) = state.withLock { state in
            state.cancelled = true
            return (state.ticket, state.queue, state.job)
        }
        if let job {
            job.interrupt()
            finish(.failure(.cancelled))
        } else if let ticket, let queue, queue.leave(ticket) {
            finish(.failure(.cancelled))
        }
    }

    func finish(_ result: Result<T, SlotQueue.Refusal>) {
        let continuation = state.withLock { state -> UnsafeContinuation<Result<T, SlotQueue.Refusal>, Never>? in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }
}
