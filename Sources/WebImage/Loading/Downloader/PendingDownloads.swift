/// The downloads waiting for a slot: one bucket per priority, popped from the front (FIFO) or
/// the back (LIFO). Removal and priority raises are lazy — a ticket per operation says which
/// bucket entry is current — so every operation is O(1) amortised even with thousands queued.
///
/// Only the tickets hold the operations: a bucket entry names one by identity, so entries
/// left behind by a pop, a raise or a removal keep nothing alive, and dropping them in bulk
/// frees no operation while the downloader's lock is held.
struct PendingDownloads {
    private struct Entry {
        /// Its operation, while the ticket with this `ticket` id is current (ids are never
        /// reused, so an address reused by a later operation never matches).
        let id: ObjectIdentifier
        let ticket: Int
    }

    private struct Ticket {
        let operation: DownloadOperation
        var priority: DownloadPriority
        var id: Int
    }

    private var buckets: [[Entry]] = [[], [], []]
    private var heads = [0, 0, 0]
    private var tickets: [ObjectIdentifier: Ticket] = [:]
    private var nextTicket = 0

    /// Downloads waiting.
    var count: Int { tickets.count }

    /// The waiting operations, in no particular order.
    var operations: [DownloadOperation] { tickets.values.map(\.operation) }

    mutating func append(_ operation: DownloadOperation, priority: DownloadPriority) {
        nextTicket += 1
        tickets[ObjectIdentifier(operation)] = Ticket(operation: operation, priority: priority, id: nextTicket)
        buckets[priority.rawValue].append(Entry(id: ObjectIdentifier(operation), ticket: nextTicket))
    }

    /// Moves a waiting operation up to `priority` (never down); it queues behind that
    /// priority's current entries.
    mutating func raise(_ operation: DownloadOperation, to priority: DownloadPriority) {
        let key = ObjectIdentifier(operation)
        guard let ticket = tickets[key], ticket.priority < priority else { return }
        nextTicket += 1
        tickets[key] = Ticket(operation: operation, priority: priority, id: nextTicket)
        buckets[priority.rawValue].append(Entry(id: key, ticket: nextTicket))
    }

    mutating func remove(_ operation: DownloadOperation) {
        tickets[ObjectIdentifier(operation)] = nil
    }

    /// The next operation to start: the highest priority first; within it the oldest (FIFO)
    /// or the newest (LIFO).
    mutating func popNext(lifo: Bool, ifPriority wanted: DownloadPriority? = nil) -> DownloadOperation? {
        // Highest first, by bucket index (a literal array of priorities here would be
        // allocated on every call, and this runs once per download).
        for index in stride(from: buckets.count - 1, through: 0, by: -1) {
            if let wanted, index != wanted.rawValue {
                // Only when nothing better waits: a higher bucket with live entries wins.
                if index > wanted.rawValue, hasLiveEntry(index) { return nil }
                continue
            }
            while heads[index] < buckets[index].count {
                let entry: Entry
                if lifo {
                    entry = buckets[index].removeLast()
                } else {
                    entry = buckets[index][heads[index]]
                    heads[index] += 1
                }
                compact(index)
                if let ticket = tickets[entry.id], ticket.id == entry.ticket {
                    tickets[entry.id] = nil
                    return ticket.operation
                }
            }
        }
        return nil
    }

    /// Whether a bucket holds an entry that is still current.
    private func hasLiveEntry(_ index: Int) -> Bool {
        guard heads[index] < buckets[index].count else { return false }
        return buckets[index][heads[index]...].contains { tickets[$0.id]?.id == $0.ticket }
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
