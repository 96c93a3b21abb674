/// Values in recency order, each with a cost, with O(1) lookup, insert, touch, removal and
/// eviction of the least recently used: the package's one LRU, behind ``MemoryCache``, the
/// downloader's pinned clients and the image service's caches.
///
/// Entries live in slots of parallel arrays, chained by `Int` links from most to least recently
/// used. Links into arrays instead of class nodes keep the hit path free of ARC traffic and of
/// allocations; freed slots are chained into a free list and reused. Not thread-safe: the owner
/// keeps it behind its lock, and releases what it removes after unlocking where freeing the
/// value is costly.
package struct LRUList<Key: Hashable, Value> {
    private struct Link {
        var previous: Int
        var next: Int
    }

    private static var end: Int { -1 }

    private var slotByKey: [Key: Int] = [:]
    private var links: [Link] = []
    // Payload apart from the links, so relinking on a hit touches only the small `links` array.
    private var keys: [Key?] = []
    private var values: [Value?] = []
    private var costs: [Int] = []
    private var head = end  // most recently used
    private var tail = end  // least recently used
    private var firstFree = end  // free slots, chained through `Link.next`

    /// Sum of the costs of the entries held.
    package private(set) var totalCost = 0

    package init() {}

    /// Number of entries held.
    package var count: Int { slotByKey.count }

    /// The value for `key`, marking it most recently used.
    package mutating func value(forKey key: Key) -> Value? {
        guard let slot = slotByKey[key] else { return nil }
        if slot != head {
            unlink(slot)
            linkAtHead(slot)
        }
        return values[slot]
    }

    /// Whether `key` is held, without changing the order.
    package func contains(_ key: Key) -> Bool {
        slotByKey[key] != nil
    }

    /// The least recently used entry, without changing the order; nil if the list is empty.
    package var leastRecentlyUsed: (key: Key, value: Value)? {
        guard tail != Self.end, let key = keys[tail], let value = values[tail] else { return nil }
        return (key, value)
    }

    /// Whether adding `cost` to the total would overflow `Int` (hostile costs must not trap).
    package func canAdd(cost: Int) -> Bool {
        !totalCost.addingReportingOverflow(cost).overflow
    }

    /// Stores `value` as the most recently used entry. `key` must not be held (the caller has
    /// removed any old entry, so that it can release it outside its lock); `cost` must be
    /// non-negative and pass ``canAdd(cost:)``.
    package mutating func insert(_ value: Value, forKey key: Key, cost: Int) {
        assert(slotByKey[key] == nil, "insert of a key already held")
        let slot: Int
        if firstFree != Self.end {
            slot = firstFree
            firstFree = links[slot].next
            keys[slot] = key
            values[slot] = value
            costs[slot] = cost
        } else {
            slot = links.count
            links.append(Link(previous: Self.end, next: Self.end))
            keys.append(key)
            values.append(value)
            costs.append(cost)
        }
        linkAtHead(slot)
        slotByKey[key] = slot
        totalCost += cost
    }

    /// Removes the entry under `key`; returns its value, for the caller to release outside its lock.
    package mutating func remove(forKey key: Key) -> Value? {
        guard let slot = slotByKey.removeValue(forKey: key) else { return nil }
        return free(slot)
    }

    /// Removes the least recently used entry; returns its value, or nil if the list is empty.
    package mutating func removeLeastRecentlyUsed() -> Value? {
        guard tail != Self.end, let key = keys[tail] else { return nil }
        let slot = tail
        slotByKey.removeValue(forKey: key)
        return free(slot)
    }

    /// Keys from most to least recently used (for tests and diagnostics; O(n)).
    package var keysByRecency: [Key] {
        var result: [Key] = []
        result.reserveCapacity(count)
        var slot = head
        while slot != Self.end, let key = keys[slot] {
            result.append(key)
            slot = links[slot].next
        }
        return result
    }

    /// Slots allocated, used or free (for tests: churn must reuse them, not grow).
    package var slotCount: Int { links.count }

    /// Describes the first broken structural invariant, or nil if the list is consistent (O(n)).
    package func invariantViolation() -> String? {
        var seen = 0
        var sum = 0
        var previous = Self.end
        var slot = head
        while slot != Self.end {
            seen += 1
            guard seen <= slotByKey.count else { return "the list is longer than the index (cycle?)" }
            guard links[slot].previous == previous else { return "slot \(slot) has a wrong back link" }
            guard let key = keys[slot], slotByKey[key] == slot else {
                return "slot \(slot) is not indexed under its key"
            }
            guard values[slot] != nil else { return "slot \(slot) is linked but empty" }
            sum += costs[slot]
            previous = slot
            slot = links[slot].next
        }
        guard previous == tail else { return "the tail is not the last linked slot" }
        guard seen == slotByKey.count else { return "\(slotByKey.count) keys but \(seen) linked slots" }
        guard sum == totalCost else { return "total cost \(totalCost) but entries sum to \(sum)" }
        var freeCount = 0
        slot = firstFree
        while slot != Self.end {
            freeCount += 1
            guard freeCount <= links.count else { return "the free list has a cycle" }
            guard values[slot] == nil, keys[slot] == nil else { return "free slot \(slot) still holds an entry" }
            slot = links[slot].next
        }
        guard seen + freeCount == links.count else { return "\(links.count - seen - freeCount) slots leaked" }
        return nil
    }

    private mutating func free(_ slot: Int) -> Value? {
        unlink(slot)
        totalCost -= costs[slot]
        let value = values[slot]
        values[slot] = nil
        keys[slot] = nil
        costs[slot] = 0
        links[slot] = Link(previous: Self.end, next: firstFree)
        firstFree = slot
        return value
    }

    private mutating func unlink(_ slot: Int) {
        let link = links[slot]
        if link.previous != Self.end { links[link.previous].next = link.next } else { head = link.next }
        if link.next != Self.end { links[link.next].previous = link.previous } else { tail = link.previous }
    }

    private mutating func linkAtHead(_ slot: Int) {
        links[slot] = Link(previous: Self.end, next: head)
        if head != Self.end { links[head].previous = slot } else { tail = slot }
        head = slot
    }
}

extension LRUList: Sendable where Key: Sendable, Value: Sendable {}
