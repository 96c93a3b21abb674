import Foundation
import NIOCore

/// A fixed pool of threads that Swift tasks can run on: the library has two.
///
/// - ``cpu``, a thread per core, for CPU work: decoding, transforming and encoding. Code runs
///   there through ``run(_:)``, which makes the pool the calling task's executor for the body
///   (`withTaskExecutorPreference`). The manager's decode and transform stages, the downloader's
///   decodes and the image service's processing all run this way.
/// - ``network``, two threads, for what must never wait behind CPU work or behind a host app
///   that blocks Swift's cooperative pool: the downloader's transfers (their body streams) and
///   its idle-timeout monitor. A timeout then fires when it is due, and never because the
///   bytes that arrived in time could not be looked at.
///
/// **No nested parallelism under load.** Work that could split an image across cores asks
/// ``concurrentPerform(iterations:_:)``, which borrows only threads of the pool that stand idle
/// at that moment, and gives each back as soon as other work waits for it. A lone image (one
/// `webimage convert`) gets every core; in a busy server, where every thread already runs an
/// image of its own, each image uses one thread and the pool never runs more threads than it
/// has.
package final class ThreadPoolExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: every stored var is in `state`, read and written only while holding
    // `condition` (a pthread mutex and condition variable), and the rest is immutable.

    /// The CPU threads, one per core.
    package static let cpu = ThreadPoolExecutor(threads: ProcessInfo.processInfo.activeProcessorCount, name: "cpu")

    /// The network threads: transfers and their timers.
    package static let network = ThreadPoolExecutor(threads: 2, name: "net")

    /// The pool running the current task's ``run(_:)`` body, if any.
    @TaskLocal package static var current: ThreadPoolExecutor?

    /// Threads in the pool.
    package let threadCount: Int

    fileprivate enum Item {
        case job(UnownedJob)
        /// A closure from ``execute(_:)``.
        case closure(@Sendable () -> Void)
        /// A helper of ``concurrentPerform(iterations:_:)``, queued at the front of the line.
        case helper(@Sendable () -> Void)
    }

    private struct State {
        var line = CircularBuffer<Item>()
        /// Jobs and closures in `line` (not helpers): work that waits for a thread.
        var waitingWork = 0
        var idle = 0
        var busy = 0
        var stopping = false
        var exited = 0
    }

    private let condition = NSCondition()
    private var state = State()

    /// A pool of `threads` threads (at least 1), named `webimage-<name>-<n>`. They live until
    /// ``shutdown()``; ``cpu`` and ``network`` live as long as the process.
    package init(threads: Int, name: String) {
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            let thread = Thread { [self] in serve() }
            thread.name = "webimage-\(name)-\(index)"
            // Codec libraries recurse little, but some keep sizeable frames on the stack.
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// Runs `body` on one of the pool's threads and returns its result to the calling task.
    /// ``current`` is this pool inside `body`.
    package func run<T: Sendable, Failure: Error>(_ body: () throws(Failure) -> T) async throws(Failure) -> T {
        let result = await Self.$current.withValue(self) {
            await withTaskExecutorPreference(self) { await Self.onPreferredExecutor(body) }
        }
        return try result.get()
    }

    /// Calls `body` after hopping to the task's preferred executor: a closure given straight to
    /// `withTaskExecutorPreference` runs where the caller is until its first suspension.
    @concurrent
    private static func onPreferredExecutor<T: Sendable, Failure: Error>(_ body: () throws(Failure) -> T) async
        -> Result<T, Failure>
    {
        Result { () throws(Failure) -> T in try body() }
    }

    /// Threads waiting for work now.
    package var idleThreadCount: Int { locked { $0.idle } }

    /// Threads running a job or a helper now.
    package var busyThreadCount: Int { locked { $0.busy } }

    package func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    /// Runs `body` on one of the pool's threads, after the work queued before it; for work
    /// whose result is handed on from there rather than awaited.
    package func execute(_ body: @escaping @Sendable () -> Void) {
        push(.closure(body))
    }

    /// Lets the threads finish what is queued and end; later jobs are never run. For pools
    /// made by tests. Returns once every thread has ended.
    package func shutdown() {
        condition.lock()
        state.stopping = true
        condition.broadcast()
        while state.exited < threadCount { condition.wait() }
        condition.unlock()
    }

    // MARK: The threads

    private func push(_ item: Item) {
        condition.lock()
        state.line.append(item)
        state.waitingWork += 1
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        condition.lock()
        while true {
            if let item = state.line.popFirst() {
                state.busy += 1
                if case .helper = item {} else { state.waitingWork -= 1 }
                condition.unlock()
                switch item {
                case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
                case .closure(let body), .helper(let body): body()
                }
                condition.lock()
                state.busy -= 1
                continue
            }
            if state.stopping { break }
            state.idle += 1
            condition.wait()
            state.idle -= 1
        }
        state.exited += 1
        condition.broadcast()
        condition.unlock()
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    /// Queues up to `wanted` copies of `helper` at the front of the line, as many as there are
    /// idle threads not already spoken for by queued items, and returns how many it queued.
    fileprivate func dispatchHelpers(upTo wanted: Int, _ helper: @escaping @Sendable () -> Void) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let count = max(0, min(wanted, state.idle - state.line.count))
        for _ in 0..<count {
            state.line.prepend(.helper(helper))
            condition.signal()
        }
        return count
    }

    /// Whether a job or closure (not a helper) waits in the line for a thread now.
    fileprivate var hasQueuedWork: Bool { locked { $0.waitingWork > 0 } }

    /// How many threads an image may use now: the caller's, plus the idle ones no queued item
    /// is about to take. Advisory (for a codec's own thread count); it can change at once.
    package var availableParallelism: Int {
        locked { state in 1 + max(0, state.idle - state.line.count) }
    }
}

extension ThreadPoolExecutor {
    /// Runs `body` for every index in `0..<iterations`, on the calling thread and on whichever
    /// of the pool's threads stand idle now (``current``'s pool inside ``run(_:)``, else
    /// ``cpu``). Returns once every index has run. With no idle thread it is a plain loop:
    /// under load an image uses one thread. Indices are handed out in order, one at a time.
    package static func concurrentPerform(iterations: Int, _ body: (Int) -> Void) {
        (current ?? cpu).concurrentPerform(iterations: iterations, body)
    }

    /// See ``concurrentPerform(iterations:_:)``; this pool's idle threads help.
    package func concurrentPerform(iterations: Int, _ body: (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let loop = ParallelLoop(iterations: iterations, body: body, executor: self)
            _ = dispatchHelpers(upTo: iterations - 1) { loop.help() }
            loop.runAndWait()
        }
    }

    /// How many threads ``concurrentPerform(iterations:_:)`` would use now, on ``current`` or
    /// ``cpu``.
    package static var availableParallelism: Int { (current ?? cpu).availableParallelism }
}

/// The indices of one ``ThreadPoolExecutor/concurrentPerform(iterations:_:)`` and the helpers that
/// joined it. A helper that starts after the caller finished touches nothing: the caller waits
/// only for helpers that joined before it closed the loop, and drops `body` when it closes it,
/// so `body` never outlives the call (helpers still queued hold the loop, not the body). A
/// helper stops taking indices as soon as other work waits for the pool, so an image that
/// borrowed idle threads gives them back within one index.
private final class ParallelLoop: @unchecked Sendable {
    // @unchecked: `body`, `next`, `active` and `closed` are read and written only while holding
    // `condition`; the body itself is called concurrently, as DispatchQueue.concurrentPerform
    // calls its body, and only until `runAndWait` returns.
    private let iterations: Int
    private var body: ((Int) -> Void)?
    /// The pool the helpers run on: they stop taking indices once work waits in its line.
    private let executor: ThreadPoolExecutor
    private let condition = NSCondition()
    private var next = 0
    private var active = 0
    private var closed = false

    init(iterations: Int, body: @escaping (Int) -> Void, executor: ThreadPoolExecutor) {
        self.iterations = iterations
        self.body = body
        self.executor = executor
    }

    /// The next index to run and the body to run it with, or nil when all are taken. The body
    /// is handed out per index, so that no thread holds it once it has no index left.
    private func claim() -> (index: Int, body: (Int) -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        guard next < iterations, let body else { return nil }
        next += 1
        return (next - 1, body)
    }

    func help() {
        condition.lock()
        guard !closed else {
            condition.unlock()
            return
        }
        active += 1
        condition.unlock()
        // A job that arrives meanwhile gets this thread after the current index: the caller
        // finishes the rest on its own.
        while !executor.hasQueuedWork, let (index, body) = claim() { body(index) }
        condition.lock()
        active -= 1
        if active == 0 { condition.broadcast() }
        condition.unlock()
    }

    func runAndWait() {
        while let (index, body) = claim() { body(index) }
        condition.lock()
        closed = true
        while active > 0 { condition.wait() }
        body = nil
        condition.unlock()
    }
}
