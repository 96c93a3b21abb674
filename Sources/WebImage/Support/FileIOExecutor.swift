import NIOPosix

/// Where blocking file work runs: a fixed set of ``width`` threads shared by every cache and
/// the file loader, with one FIFO queue in front of them.
///
/// File calls block their thread. On Swift's cooperative pool (one thread per core) a slow
/// disk would stall every task; on a dispatch queue each blocked item can make the system add
/// a thread. A fixed pool bounds both: at most ``width`` file operations run at once and the
/// rest wait in line, whatever the load. The threads start with the first file operation.
package final class FileIOExecutor: Sendable {
    /// The executor the library uses.
    package static let shared = FileIOExecutor(width: 4)

    /// Threads, and so file operations running at once.
    package let width: Int
    /// Work queued or running, by number, and who waits for some of it to end (``drain()``).
    private let outstanding = Locked(Outstanding())

    private struct Outstanding {
        /// Started with the first item: a process that never touches a file starts no thread.
        var pool: NIOThreadPool?
        var next: UInt64 = 0
        var numbers = Set<UInt64>()
        var drainWaiters: [(upTo: UInt64, continuation: CheckedContinuation<Void, Never>)] = []

        /// Whether every item numbered up to `number` has ended.
        func isDone(upTo number: UInt64) -> Bool { !numbers.contains { $0 <= number } }
    }

    init(width: Int) {
        self.width = width
    }

    /// Runs `body` on one of the threads and returns its result; the caller's thread is free
    /// meanwhile. Cancelling the caller does not stop `body`: file work is short, and checks
    /// for itself whether anyone still wants it.
    package func run<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T)
        async throws(Failure) -> T
    {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
            enqueue { continuation.resume(returning: Result { () throws(Failure) in try body() }) }
        }
        return try result.get()
    }

    /// Queues `body` and returns at once (for work nobody waits for, such as a background store).
    package func enqueue(_ body: @escaping @Sendable () -> Void) {
        let (number, pool) = outstanding.withLock { [width] state in
            state.next += 1
            state.numbers.insert(state.next)
            let pool =
                state.pool
                ?? NIOThreadPool._makePerpetualStartedPool(
                    numberOfThreads: width, threadNamePrefix: "swift-web-image-io-")
            state.pool = pool
            return (state.next, pool)
        }
        pool.submit { [self] _ in
            // The pool is never stopped, so every item runs.
            body()
            let waiters = outstanding.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.numbers.remove(number)
                guard !state.drainWaiters.isEmpty else { return [] }
                let finished = state
                var done: [CheckedContinuation<Void, Never>] = []
                state.drainWaiters.removeAll { waiter in
                    guard finished.isDone(upTo: waiter.upTo) else { return false }
                    done.append(waiter.continuation)
                    return true
                }
                return done
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns once all work queued before the call has ended (work queued later may still run).
    package func drain() async {
        await withCheckedContinuation { continuation in
            let done = outstanding.withLock { state in
                if state.isDone(upTo: state.next) { return true }
                state.drainWaiters.append((state.next, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}
