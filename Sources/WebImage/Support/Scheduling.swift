import Foundation
import NIOCore

// Where work waits and which threads run it: `SlotQueue` (a bounded number of slots, a line by
// priority with deadlines) and the thread pools that run CPU work and the downloader's timers
// off the cooperative pool.

/// A fixed number of slots, the line of jobs waiting for one, and the tasks that run them: the
/// library's one queue. The downloader's transfers wait here for one of its
/// ``ImageDownloader/maxConcurrentDownloads`` slots, the prefetcher's loads for one of its
/// ``ImagePrefetcher/maxConcurrentPrefetchCount``, and the image service's results for one of
/// its workers.
///
/// - A place in line is taken synchronously (``tryEnqueue(priority:runPriority:lane:work:onExpired:)``),
///   so jobs queued one call after another start in that order, whatever threads later run them.
/// - The line is served by priority, then first-in-first-out or last-in-first-out. A place can
///   be left or raised at any time, in constant time: both are lazy, and stale entries are
///   skipped when they reach the front.
/// - **Lanes.** Each job waits in a lane, and a lane may be allowed fewer of the slots than
///   all of them (``init(slots:order:laneLimits:waitingLimit:waitLimit:)``). When the best
///   waiting job's lane is at its limit, the best job of another lane starts instead: the
///   image service keeps huge sources in a lane of their own so that they can never take every
///   worker from small ones.
/// - **Bounds.** With a `waitingLimit`, a job that finds that many waiting is refused at once;
///   with a `waitLimit`, a job that waits longer leaves the line and its `onExpired` runs. One
///   timer task per queue watches the deadlines, not one per job.
/// - Jobs run in worker tasks, one per busy slot. A worker that finishes a job takes the next
///   one that asks for its task priority, in the same task; otherwise it gives the slot back
///   and ends, and a new worker starts for the next job. A queue that stays busy creates a task
///   per slot, not per job.
/// - A running job can be interrupted through its ``Job``: that cancels its worker's task, and
///   the worker ends after the job (a task's cancellation cannot be undone for the next job).
package final class SlotQueue: Sendable {
    package enum Order: Sendable {
        case fifo, lifo
    }

    package enum Priority: Int, Comparable, Sendable {
        case low, normal, high
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What a waiting place runs once it has a slot.
    package typealias Work = @Sendable (Job) async -> Void

    /// One place in line; its work runs exactly once, unless it leaves (or expires) first.
    package final class Ticket: Sendable {
        /// What runs, and what runs instead if the wait expires; read and cleared only under
        /// the queue's lock.
        nonisolated(unsafe) fileprivate var work: Work?
        nonisolated(unsafe) fileprivate var onExpired: (@Sendable () -> Void)?
        let runPriority: TaskPriority
        let lane: Int

        fileprivate init(work: @escaping Work, onExpired: (@Sendable () -> Void)?, runPriority: TaskPriority, lane: Int)
        {
            self.work = work
            self.onExpired = onExpired
            self.runPriority = runPriority
            self.lane = lane
        }
    }

    /// A job started by a grant: its work, the priority its worker runs at and its lane.
    fileprivate typealias Grant = (work: Work, priority: TaskPriority, lane: Int)

    private struct State {
        var lines: [WaitingLine]
        var slots: Int
        var running = 0
        var laneRunning: [Int]
        let laneLimits: [Int]
        var suspended = false
        let order: Order
        /// Waiting tickets' deadlines in the order they were set (a queue's wait limit is
        /// fixed, so that is also the order they fall due); stale ones are skipped.
        var deadlines: [(due: ContinuousClock.Instant, ticket: Ticket)] = []
        var deadlineHead = 0
        var watchingDeadlines = false
        /// The serial of the latest place taken or raised, across lanes.
        var serial = 0

        var waiting: Int { lines.reduce(0) { $0 + $1.count } }

        /// Takes the next tickets' work while slots are free, counting them as running.
        mutating func takeGrantable() -> [Grant] {
            var granted: [Grant] = []
            while !suspended, running < slots, let next = popNext(runPriority: nil) {
                guard let work = next.work else { continue }
                next.work = nil
                next.onExpired = nil
                running += 1
                laneRunning[next.lane] += 1
                granted.append((work, next.runPriority, next.lane))
            }
            return granted
        }

        /// The best waiting ticket of a lane below its limit: the highest priority, then the
        /// oldest (FIFO) or newest (LIFO). With `runPriority`, only a ticket that runs at it.
        mutating func popNext(runPriority: TaskPriority?) -> Ticket? {
            var best: (lane: Int, rank: WaitingLine.Rank)?
            for lane in lines.indices where laneRunning[lane] < laneLimits[lane] {
                guard let rank = lines[lane].peekRank(lifo: order == .lifo) else { continue }
                if let current = best, !rank.isAhead(of: current.rank, lifo: order == .lifo) { continue }
                best = (lane, rank)
            }
            guard let best else { return nil }
            return lines[best.lane].popNext(lifo: order == .lifo, ifRunPriority: runPriority)
        }
    }

    private let state: Locked<State>
    /// How long a job may wait for a slot; nil: as long as it takes.
    package let waitLimit: Duration?
    /// How many jobs may wait at once; nil: any number.
    package let waitingLimit: Int?
    /// Where the workers run; nil: Swift's cooperative pool.
    private let executor: (any TaskExecutor)?

    /// A queue with `slots` slots (at least 1) serving its line in `order`. `laneLimits` gives
    /// each lane (0, 1, …) the most slots it may hold at once (at least 1; a limit at or above
    /// `slots` means all of them); by default there is one lane that may use them all. `waitingLimit` and `waitLimit` bound
    /// the line in length and in time. The workers run on `executor` (Swift's cooperative
    /// pool when nil).
    package init(
        slots: Int, order: Order = .fifo, laneLimits: [Int]? = nil, waitingLimit: Int? = nil,
        waitLimit: Duration? = nil, executor: (any TaskExecutor)? = nil
    ) {
        self.executor = executor
        let slots = max(slots, 1)
        let limits = (laneLimits ?? [.max]).map { max($0, 1) }
        state = Locked(
            State(
                lines: limits.map { _ in WaitingLine() }, slots: slots,
                laneRunning: limits.map { _ in 0 }, laneLimits: limits, order: order))
        self.waitingLimit = waitingLimit.map { max($0, 0) }
        self.waitLimit = waitLimit
    }

    /// Slots in all; raising it starts waiting jobs at once, lowering it lets running jobs end.
    package var slots: Int {
        get { state.withLock { $0.slots } }
        set {
            start(
                state.withLock { state in
                    state.slots = max(newValue, 1)
                    return state.takeGrantable()
                })
        }
    }

    /// While true, no job starts; running ones go on.
    package var isSuspended: Bool {
        get { state.withLock { $0.suspended } }
        set {
            start(
                state.withLock { state in
                    state.suspended = newValue
                    return state.takeGrantable()
                })
        }
    }

    /// Jobs waiting, and slots taken.
    package var counts: (waiting: Int, running: Int) { state.withLock { ($0.waiting, $0.running) } }

    /// Slots taken by each lane's jobs now.
    package var runningByLane: [Int] { state.withLock { $0.laneRunning } }

    /// Takes a place in line for `work`, which runs once a slot is free (possibly starting on
    /// this thread before this returns) in a task at `runPriority`. For a queue without a
    /// ``waitingLimit``, which never refuses; see ``tryEnqueue(priority:runPriority:lane:work:onExpired:)``.
    @discardableResult
    package func enqueue(priority: Priority, runPriority: TaskPriority, lane: Int = 0, work: @escaping Work) -> Ticket {
        guard let ticket = tryEnqueue(priority: priority, runPriority: runPriority, lane: lane, work: work) else {
            preconditionFailure("a queue with a waiting limit can refuse a job: use tryEnqueue")
        }
        return ticket
    }

    /// Takes a place in `lane`'s line for `work`, which runs once a slot is free (possibly
    /// starting on this thread before this returns) in a task at `runPriority`. Nil, and
    /// nothing queued, when the job would wait and the line already holds ``waitingLimit``
    /// jobs. If the queue has a ``waitLimit`` and the job waits longer, it leaves the line and
    /// `onExpired` runs instead of `work`.
    package func tryEnqueue(
        priority: Priority, runPriority: TaskPriority, lane: Int = 0, work: @escaping Work,
        onExpired: (@Sendable () -> Void)? = nil
    ) -> Ticket? {
        let ticket = Ticket(work: work, onExpired: onExpired, runPriority: runPriority, lane: lane)
        let (granted, queued, watch) = state.withLock { state -> ([Grant], Bool, Bool) in
            precondition(state.lines.indices.contains(lane), "lane \(lane) does not exist")
            state.serial += 1
            state.lines[lane].append(ticket, priority: priority, serial: state.serial)
            let granted = state.takeGrantable()
            guard ticket.work != nil else { return (granted, true, false) }
            // It waits: unless the line was already full.
            if let waitingLimit, state.waiting > waitingLimit {
                _ = state.lines[lane].remove(ticket)
                ticket.work = nil
                ticket.onExpired = nil
                return (granted, false, false)
            }
            guard let waitLimit else { return (granted, true, false) }
            state.deadlines.append((ContinuousClock.now + waitLimit, ticket))
            defer { state.watchingDeadlines = true }
            return (granted, true, !state.watchingDeadlines)
        }
        start(granted)
        if watch { Task { [self] in await watchDeadlines() } }
        return queued ? ticket : nil
    }

    /// Takes `ticket` out of the line; false if its work started already.
    @discardableResult
    package func leave(_ ticket: Ticket) -> Bool {
        state.withLock { state in
            guard state.lines[ticket.lane].remove(ticket) else { return false }
            ticket.work = nil
            ticket.onExpired = nil
            return true
        }
    }

    /// Moves a waiting ticket up to `priority` (never down), behind that priority's current line.
    package func raise(_ ticket: Ticket, to priority: Priority) {
        state.withLock { state in
            guard state.lines[ticket.lane].canRaise(ticket, to: priority) else { return }
            state.serial += 1
            state.lines[ticket.lane].raise(ticket, to: priority, serial: state.serial)
        }
    }

    // MARK: Deadlines

    /// Expires waiting tickets as their deadlines pass: one task for the whole queue, sleeping
    /// until the oldest deadline, ending when no ticket waits with one.
    private func watchDeadlines() async {
        while true {
            let now = ContinuousClock.now
            let (expired, nextDue) = state.withLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
                var expired: [@Sendable () -> Void] = []
                while state.deadlineHead < state.deadlines.count {
                    let (due, ticket) = state.deadlines[state.deadlineHead]
                    // Started or left already: nothing to expire.
                    guard ticket.work != nil else {
                        state.deadlineHead += 1
                        continue
                    }
                    guard due <= now else { break }
                    state.deadlineHead += 1
                    if state.lines[ticket.lane].remove(ticket) {
                        if let handler = ticket.onExpired { expired.append(handler) }
                        ticket.work = nil
                        ticket.onExpired = nil
                    }
                }
                if state.deadlineHead == state.deadlines.count {
                    state.deadlines.removeAll(keepingCapacity: true)
                    state.deadlineHead = 0
                    state.watchingDeadlines = false
                    return (expired, nil)
                }
                if state.deadlineHead > 256, state.deadlineHead * 2 > state.deadlines.count {
                    state.deadlines.removeFirst(state.deadlineHead)
                    state.deadlineHead = 0
                }
                return (expired, state.deadlines[state.deadlineHead].due)
            }
            for handler in expired { handler() }
            guard let nextDue else { return }
            try? await Task.sleep(until: nextDue, clock: .continuous)
        }
    }

    // MARK: Workers

    /// Starts a worker for each granted ticket's work. It starts on this thread (as
    /// `Task.immediate` does) and leaves it at the work's first suspension.
    private func start(_ granted: [Grant]) {
        for grant in granted {
            let worker = Worker()
            worker.attach(
                Task.immediate(priority: grant.priority, executorPreference: executor) { [self] in
                    await run(first: grant.work, lane: grant.lane, priority: grant.priority, in: worker)
                })
        }
    }

    /// A worker's life: jobs one after another, while the next asks for its priority.
    private func run(first: @escaping Work, lane: Int, priority: TaskPriority, in worker: Worker) async {
        var next: (work: Work, lane: Int)? = (first, lane)
        var lane = lane
        while let (work, nextLane) = next {
            lane = nextLane
            let job = worker.begin()
            await work(job)
            next = worker.end(job) ? handOver(from: lane, priority: priority) : nil
        }
        // The slot of an interrupted worker, or of one with nothing fitting to do, goes back.
        start(
            state.withLock { state in
                state.running -= 1
                state.laneRunning[lane] -= 1
                return state.takeGrantable()
            })
    }

    /// The next job for a worker at `priority` that just ran a job in `lane`, keeping its
    /// slot; nil if the next one needs another priority (or nothing waits, or the slots were
    /// reduced or suspended).
    private func handOver(from lane: Int, priority: TaskPriority) -> (Work, Int)? {
        state.withLock { state in
            guard !state.suspended, state.running <= state.slots else { return nil }
            state.laneRunning[lane] -= 1
            guard let next = state.popNext(runPriority: priority), let work = next.work else {
                state.laneRunning[lane] += 1
                return nil
            }
            next.work = nil
            next.onExpired = nil
            state.laneRunning[next.lane] += 1
            return (work, next.lane)
        }
    }

    /// A running job's handle on its worker: what interrupts or raises it.
    package struct Job: Sendable {
        fileprivate let worker: Worker
        /// Which of its worker's jobs this is: 1 for a worker's first, 2 for the one it ran next.
        package let number: UInt64

        /// Cancels the worker's task while it still runs this job; the worker then ends.
        package func interrupt() { worker.interrupt(number) }

        /// Raises the worker's task to `priority` while it still runs this job.
        package func escalate(to priority: TaskPriority) { worker.escalate(number, to: priority) }
    }

    /// One worker task and the job it runs now.
    fileprivate final class Worker: Sendable {
        private struct State {
            var task: Task<Void, Never>?
            var job: UInt64 = 0
            var running = false
            var interrupted = false
        }

        private let state = Locked(State())

        func attach(_ task: Task<Void, Never>) {
            let interrupted = state.withLock { state in
                state.task = task
                return state.interrupted
            }
            if interrupted { task.cancel() }
        }

        func begin() -> Job {
            let number = state.withLock { state in
                state.job += 1
                state.running = true
                return state.job
            }
            return Job(worker: self, number: number)
        }

        /// Whether the worker may take another job (it was not interrupted).
        func end(_ job: Job) -> Bool {
            state.withLock { state in
                state.running = false
                if !state.interrupted { return true }
                state.task = nil
                return false
            }
        }

        func interrupt(_ number: UInt64) {
            let task = state.withLock { state -> Task<Void, Never>? in
                guard state.running, state.job == number else { return nil }
                state.interrupted = true
                return state.task
            }
            task?.cancel()
        }

        func escalate(_ number: UInt64, to priority: TaskPriority) {
            let task = state.withLock { state in state.running && state.job == number ? state.task : nil }
            task?.escalatePriority(to: priority)
        }
    }
}

extension SlotQueue.Priority {
    /// The place in line that a task priority stands for: high and above, medium, and below.
    init(_ priority: TaskPriority) {
        self = priority >= .high ? .high : priority >= .medium ? .normal : .low
    }
}

/// The tickets of one lane waiting for a slot: one bucket per priority, popped from the front
/// (FIFO) or the back (LIFO). Removal and raises are lazy — a serial number per ticket says which
/// bucket entry is current — so every operation is O(1) amortised even with thousands waiting.
/// Only `places` holds the tickets: an entry left behind by a pop, a raise or a removal names
/// its ticket by identity and keeps nothing alive. Serials come from the queue, so that the
/// heads of two lanes can be compared (``Rank``).
struct WaitingLine {
    /// Where a ticket stands: its priority, then its serial (lower is older).
    struct Rank {
        let priority: SlotQueue.Priority
        let serial: Int

        /// Whether this ticket is served before `other`: a higher priority, else the older
        /// (FIFO) or the newer (LIFO).
        func isAhead(of other: Rank, lifo: Bool) -> Bool {
            if priority != other.priority { return priority > other.priority }
            return lifo ? serial > other.serial : serial < other.serial
        }
    }

    private struct Entry {
        let id: ObjectIdentifier
        let serial: Int
    }

    private struct Place {
        let ticket: SlotQueue.Ticket
        var priority: SlotQueue.Priority
        var serial: Int
    }

    private var buckets: [[Entry]] = [[], [], []]
    private var heads = [0, 0, 0]
    private var places: [ObjectIdentifier: Place] = [:]

    /// Tickets waiting.
    var count: Int { places.count }

    /// Adds `ticket` with `serial`, which must be above every serial given before.
    mutating func append(_ ticket: SlotQueue.Ticket, priority: SlotQueue.Priority, serial: Int) {
        let id = ObjectIdentifier(ticket)
        places[id] = Place(ticket: ticket, priority: priority, serial: serial)
        buckets[priority.rawValue].append(Entry(id: id, serial: serial))
    }

    /// Whether `ticket` waits here below `priority` (and can be raised).
    func canRaise(_ ticket: SlotQueue.Ticket, to priority: SlotQueue.Priority) -> Bool {
        places[ObjectIdentifier(ticket)].map { $0.priority < priority } ?? false
    }

    /// Moves `ticket` up to `priority` with a new `serial` (above every serial given before).
    mutating func raise(_ ticket: SlotQueue.Ticket, to priority: SlotQueue.Priority, serial: Int) {
        let id = ObjectIdentifier(ticket)
        guard var place = places[id], place.priority < priority else { return }
        place.priority = priority
        place.serial = serial
        places[id] = place
        buckets[priority.rawValue].append(Entry(id: id, serial: serial))
    }

    /// Whether the ticket was waiting.
    mutating func remove(_ ticket: SlotQueue.Ticket) -> Bool {
        places.removeValue(forKey: ObjectIdentifier(ticket)) != nil
    }

    /// The rank of the ticket ``popNext(lifo:ifRunPriority:)`` would return; nil when none waits.
    mutating func peekRank(lifo: Bool) -> Rank? {
        head(lifo: lifo).map { Rank(priority: $0.place.priority, serial: $0.place.serial) }
    }

    /// The next ticket: the highest priority first; within it the oldest (FIFO) or the newest
    /// (LIFO). With `ifRunPriority`, only if that ticket runs at this task priority.
    mutating func popNext(lifo: Bool, ifRunPriority runPriority: TaskPriority? = nil) -> SlotQueue.Ticket? {
        guard let (bucket, place) = head(lifo: lifo) else { return nil }
        if let runPriority, place.ticket.runPriority != runPriority { return nil }
        drop(bucket, lifo: lifo)
        places[ObjectIdentifier(place.ticket)] = nil
        return place.ticket
    }

    /// The bucket and place of the next ticket, dropping stale entries on the way.
    private mutating func head(lifo: Bool) -> (bucket: Int, place: Place)? {
        for index in stride(from: buckets.count - 1, through: 0, by: -1) {
            while heads[index] < buckets[index].count {
                let entry = lifo ? buckets[index][buckets[index].count - 1] : buckets[index][heads[index]]
                guard let place = places[entry.id], place.serial == entry.serial else {
                    drop(index, lifo: lifo)
                    continue
                }
                return (index, place)
            }
        }
        return nil
    }

    /// Drops the entry at the end `popNext` reads, and the consumed entries once they are the
    /// larger part of the bucket.
    private mutating func drop(_ index: Int, lifo: Bool) {
        if lifo {
            buckets[index].removeLast()
        } else {
            heads[index] += 1
        }
        if heads[index] == buckets[index].count {
            buckets[index].removeAll(keepingCapacity: true)
            heads[index] = 0
        } else if heads[index] > 256, heads[index] * 2 > buckets[index].count {
            buckets[index].removeFirst(heads[index])
            heads[index] = 0
        }
    }
}

/// A fixed pool of threads that Swift tasks can run on: the library has two.
///
/// - ``cpu``, a thread per core, for CPU work: decoding, transforming and encoding. Code runs
///   there through ``run(_:)``, which makes the pool the calling task's executor for the body
///   (`withTaskExecutorPreference`). The manager's decode and transform stages, the downloader's
///   decodes and the image service's processing all run this way.
/// - ``network``, one thread, for what must never wait behind CPU work or behind a host app
///   that blocks Swift's cooperative pool: the downloader's idle-timeout monitor, so that a
///   timeout fires when it is due. (Responses are read on the event loop that receives them.)
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

    /// The network thread: the downloader's timers.
    package static let network = ThreadPoolExecutor(threads: 1, name: "net")

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
