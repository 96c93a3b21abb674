/// A fixed number of slots, the line of jobs waiting for one, and the tasks that run them: the
/// library's one queue. The downloader's transfers wait here for one of its
/// ``ImageDownloader/maxConcurrentDownloads`` slots, the prefetcher's loads for one of its
/// ``ImagePrefetcher/maxConcurrentPrefetchCount``.
///
/// - A place in line is taken synchronously (``enqueue(priority:runPriority:job:)``), so jobs
///   queued one call after another start in that order, whatever threads later run them.
/// - The line is served by priority, then first-in-first-out or last-in-first-out. A place can
///   be left or raised at any time, in constant time: both are lazy, and stale entries are
///   skipped when they reach the front.
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

    /// One place in line; its work runs exactly once, unless it leaves first.
    package final class Ticket: Sendable {
        /// What runs, and at which task priority; read and cleared only under the queue's lock.
        nonisolated(unsafe) fileprivate var work: Work?
        fileprivate let runPriority: TaskPriority

        fileprivate init(work: @escaping Work, runPriority: TaskPriority) {
            self.work = work
            self.runPriority = runPriority
        }
    }

    private struct State {
        var line = WaitingLine()
        var slots: Int
        var running = 0
        var suspended = false
        let order: Order

        var canGrant: Bool { !suspended && running < slots }

        /// Takes the next tickets' work while slots are free, counting them as running.
        mutating func takeGrantable() -> [(Work, TaskPriority)] {
            var granted: [(Work, TaskPriority)] = []
            while canGrant, let next = line.popNext(lifo: order == .lifo) {
                guard let work = next.work else { continue }
                next.work = nil
                running += 1
                granted.append((work, next.runPriority))
            }
            return granted
        }
    }

    private let state: Locked<State>

    /// A queue with `slots` slots (at least 1) serving its line in `order`.
    package init(slots: Int, order: Order = .fifo) {
        state = Locked(State(slots: max(slots, 1), order: order))
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
    package var counts: (waiting: Int, running: Int) { state.withLock { ($0.line.count, $0.running) } }

    /// Takes a place in line for `work`, which runs once a slot is free (possibly starting on
    /// this thread before this returns) in a task at `runPriority`.
    package func enqueue(priority: Priority, runPriority: TaskPriority, work: @escaping Work) -> Ticket {
        let ticket = Ticket(work: work, runPriority: runPriority)
        start(
            state.withLock { state in
                state.line.append(ticket, priority: priority)
                return state.takeGrantable()
            })
        return ticket
    }

    /// Takes `ticket` out of the line; false if its work started already.
    @discardableResult
    package func leave(_ ticket: Ticket) -> Bool {
        state.withLock { state in
            guard state.line.remove(ticket) else { return false }
            ticket.work = nil
            return true
        }
    }

    /// Moves a waiting ticket up to `priority` (never down), behind that priority's current line.
    package func raise(_ ticket: Ticket, to priority: Priority) {
        state.withLock { $0.line.raise(ticket, to: priority) }
    }

    // MARK: Workers

    /// Starts a worker for each granted ticket's work. It starts on this thread (as
    /// `Task.immediate` does) and leaves it at the work's first suspension.
    private func start(_ granted: [(Work, TaskPriority)]) {
        for (work, priority) in granted {
            let worker = Worker()
            worker.attach(
                Task.immediate(priority: priority) { [self] in await run(first: work, priority: priority, in: worker) })
        }
    }

    /// A worker's life: jobs one after another, while the next asks for its priority.
    private func run(first: @escaping Work, priority: TaskPriority, in worker: Worker) async {
        var next: Work? = first
        while let work = next {
            let job = worker.begin()
            await work(job)
            next = worker.end(job) ? handOver(priority: priority) : nil
        }
        // The slot of an interrupted worker, or of one with nothing fitting to do, goes back.
        start(
            state.withLock { state in
                state.running -= 1
                return state.takeGrantable()
            })
    }

    /// The next job for a worker at `priority`, keeping its slot; nil if the next one needs
    /// another priority (or nothing waits, or the slots were reduced or suspended).
    private func handOver(priority: TaskPriority) -> Work? {
        state.withLock { state in
            guard !state.suspended, state.running <= state.slots,
                let next = state.line.popNext(lifo: state.order == .lifo, ifRunPriority: priority)
            else { return nil }
            defer { next.work = nil }
            return next.work
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

/// The tickets waiting for a slot: one bucket per priority, popped from the front (FIFO) or the
/// back (LIFO). Removal and raises are lazy — a serial number per ticket says which bucket entry
/// is current — so every operation is O(1) amortised even with thousands waiting. Only
/// `places` holds the tickets: an entry left behind by a pop, a raise or a removal names its
/// ticket by identity and keeps nothing alive.
private struct WaitingLine {
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
    private var nextSerial = 0

    /// Tickets waiting.
    var count: Int { places.count }

    mutating func append(_ ticket: SlotQueue.Ticket, priority: SlotQueue.Priority) {
        nextSerial += 1
        let id = ObjectIdentifier(ticket)
        places[id] = Place(ticket: ticket, priority: priority, serial: nextSerial)
        buckets[priority.rawValue].append(Entry(id: id, serial: nextSerial))
    }

    mutating func raise(_ ticket: SlotQueue.Ticket, to priority: SlotQueue.Priority) {
        let id = ObjectIdentifier(ticket)
        guard var place = places[id], place.priority < priority else { return }
        nextSerial += 1
        place.priority = priority
        place.serial = nextSerial
        places[id] = place
        buckets[priority.rawValue].append(Entry(id: id, serial: nextSerial))
    }

    /// Whether the ticket was waiting.
    mutating func remove(_ ticket: SlotQueue.Ticket) -> Bool {
        places.removeValue(forKey: ObjectIdentifier(ticket)) != nil
    }

    /// The next ticket: the highest priority first; within it the oldest (FIFO) or the newest
    /// (LIFO). With `ifRunPriority`, only if that ticket runs at this task priority.
    mutating func popNext(lifo: Bool, ifRunPriority runPriority: TaskPriority? = nil) -> SlotQueue.Ticket? {
        for index in stride(from: buckets.count - 1, through: 0, by: -1) {
            while heads[index] < buckets[index].count {
                let entry = lifo ? buckets[index][buckets[index].count - 1] : buckets[index][heads[index]]
                guard let place = places[entry.id], place.serial == entry.serial else {
                    drop(index, lifo: lifo)
                    continue
                }
                if let runPriority, place.ticket.runPriority != runPriority { return nil }
                drop(index, lifo: lifo)
                places[entry.id] = nil
                return place.ticket
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
