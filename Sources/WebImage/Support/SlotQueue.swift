/// A fixed number of slots, and the line of work waiting for one: the library's one queue. The
/// downloader's transfers wait here for one of its ``ImageDownloader/maxConcurrentDownloads``
/// slots, the prefetcher's loads for one of its ``ImagePrefetcher/maxConcurrentPrefetchCount``.
///
/// A place in line is taken synchronously (``enqueue(priority:onGrant:)``), so work queued
/// one call after another is served in that order whatever threads later run it. The line is
/// served by priority, then first-in-first-out or last-in-first-out. A place can be left or
/// raised at any time, in constant time: both are lazy, and stale entries are skipped when
/// they reach the front.
package final class SlotQueue: Sendable {
    package enum Order: Sendable {
        case fifo, lifo
    }

    package enum Priority: Int, Comparable, Sendable {
        case low, normal, high
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One place in line; it is granted a slot exactly once, unless it leaves first.
    package final class Ticket: Sendable {
        private struct State {
            var granted = false
            /// It left the line: a wait for it ends at once, without a slot.
            var refused = false
            var waiter: CheckedContinuation<Bool, Never>?
            var onGrant: (@Sendable () -> Void)?
        }

        private let state: Locked<State>

        fileprivate init(onGrant: (@Sendable () -> Void)?) {
            state = Locked(State(onGrant: onGrant))
        }

        /// Whether a task waits for this ticket now.
        var isAwaited: Bool { state.withLock { $0.waiter != nil } }

        fileprivate func grant() {
            let (waiter, onGrant) = state.withLock { state in
                state.granted = true
                defer {
                    state.waiter = nil
                    state.onGrant = nil
                }
                return (state.waiter, state.onGrant)
            }
            waiter?.resume(returning: true)
            onGrant?()
        }

        fileprivate func wait() async -> Bool {
            await withCheckedContinuation { continuation in
                let answer = state.withLock { state -> Bool? in
                    if state.granted { return true }
                    if state.refused { return false }
                    state.waiter = continuation
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        }

        /// Ends a wait without a slot (the ticket left the line), and lets go of `onGrant`.
        fileprivate func refuse() {
            state.withLock { state -> CheckedContinuation<Bool, Never>? in
                state.refused = true
                defer {
                    state.waiter = nil
                    state.onGrant = nil
                }
                return state.waiter
            }?.resume(returning: false)
        }
    }

    private struct State {
        var line = WaitingLine()
        var slots: Int
        var running = 0
        var suspended = false
        let order: Order

        /// Takes the next tickets while slots are free, counting them as running.
        mutating func takeGrantable() -> [Ticket] {
            var granted: [Ticket] = []
            while !suspended, running < slots, let next = line.popNext(lifo: order == .lifo) {
                running += 1
                granted.append(next)
            }
            return granted
        }
    }

    private let state: Locked<State>

    /// A queue with `slots` slots (at least 1) serving its line in `order`.
    package init(slots: Int, order: Order = .fifo) {
        state = Locked(State(slots: max(slots, 1), order: order))
    }

    /// Slots in all; raising it grants waiting tickets at once, lowering it lets running work end.
    package var slots: Int {
        get { state.withLock { $0.slots } }
        set { grant(state.withLock { state in
            state.slots = max(newValue, 1)
            return state.takeGrantable()
        }) }
    }

    /// While true, no ticket is granted; running work goes on.
    package var isSuspended: Bool {
        get { state.withLock { $0.suspended } }
        set { grant(state.withLock { state in
            state.suspended = newValue
            return state.takeGrantable()
        }) }
    }

    /// Tickets waiting, and slots taken.
    package var counts: (waiting: Int, running: Int) { state.withLock { ($0.line.count, $0.running) } }

    /// Takes a place in line; `onGrant`, if given, runs once a slot is granted (possibly before
    /// this returns, on this thread). The holder of a granted ticket must ``release()`` its slot.
    package func enqueue(priority: Priority, onGrant: (@Sendable () -> Void)? = nil) -> Ticket {
        let ticket = Ticket(onGrant: onGrant)
        grant(state.withLock { state in
            state.line.append(ticket, priority: priority)
            return state.takeGrantable()
        })
        return ticket
    }

    /// Waits until `ticket` is granted a slot. If the calling task is cancelled first, the
    /// ticket leaves the line and this throws ``WebImageError/cancelled``; a raise of the calling
    /// task's priority raises the ticket.
    package func wait(for ticket: Ticket) async throws(WebImageError) {
        let granted = await withTaskCancellationHandler {
            await withTaskPriorityEscalationHandler {
                await ticket.wait()
            } onPriorityEscalated: { [self] _, raised in
                raise(ticket, to: Priority(raised))
            }
        } onCancel: { [self] in
            leave(ticket)
        }
        if !granted { throw .cancelled }
    }

    /// Takes `ticket` out of the line (a wait for it ends without a slot); false if it was
    /// granted already, and its holder owns a slot.
    @discardableResult
    package func leave(_ ticket: Ticket) -> Bool {
        let removed = state.withLock { $0.line.remove(ticket) }
        if removed { ticket.refuse() }
        return removed
    }

    /// Moves a waiting ticket up to `priority` (never down), behind that priority's current line.
    package func raise(_ ticket: Ticket, to priority: Priority) {
        state.withLock { $0.line.raise(ticket, to: priority) }
    }

    /// Gives a granted ticket's slot back; the next waiting ticket takes it.
    package func release() {
        grant(state.withLock { state in
            state.running -= 1
            return state.takeGrantable()
        })
    }

    private func grant(_ tickets: [Ticket]) {
        for ticket in tickets { ticket.grant() }
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

    /// The next ticket: the highest priority first; within it the oldest (FIFO) or the newest (LIFO).
    mutating func popNext(lifo: Bool) -> SlotQueue.Ticket? {
        for index in stride(from: buckets.count - 1, through: 0, by: -1) {
            while heads[index] < buckets[index].count {
                let entry: Entry
                if lifo {
                    entry = buckets[index].removeLast()
                } else {
                    entry = buckets[index][heads[index]]
                    heads[index] += 1
                }
                compact(index)
                if let place = places[entry.id], place.serial == entry.serial {
                    places[entry.id] = nil
                    return place.ticket
                }
            }
        }
        return nil
    }

    /// Drops consumed entries once they are the larger part of a bucket.
    private mutating func compact(_ index: Int) {
        if heads[index] == buckets[index].count {
            buckets[index].removeAll(keepingCapacity: true)
            heads[index] = 0
        } else if heads[index] > 256, heads[index] * 2 > buckets[index].count {
            buckets[index].removeFirst(heads[index])
            heads[index] = 0
        }
    }
}
