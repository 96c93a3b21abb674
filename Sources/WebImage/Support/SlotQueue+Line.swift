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
