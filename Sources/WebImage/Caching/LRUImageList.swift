/// The entries of a ``MemoryCache`` in recency order, with O(1) lookup, insert, touch and removal.
///
/// Entries live in slots of parallel arrays, chained by `Int` links from most to least recently
/// used. Links into arrays instead of class nodes keep the hit path free of ARC traffic and of
/// allocations; freed slots are chained into a free list and reused. Not thread-safe: the owner
/// keeps it behind its lock.
struct LRUImageList {
    private struct Link {
        var previous: Int
        var next: Int
    }

    private static let end = -1

    private var slotByKey: [String: Int] = [:]
    private var links: [Link] = []
    // Payload apart from the links, so relinking on a hit touches only the small `links` array.
    private var keys: [String] = []
    private var images: [Image?] = []
    private var costs: [Int] = []
    private var head = end  // most recently used
    private var tail = end  // least recently used
    private var firstFree = end  // free slots, chained through `Link.next`

    /// Sum of the costs of the entries held.
    private(set) var totalCost = 0

    /// Number of entries held.
    var count: Int { slotByKey.count }

    /// The image for `key`, marking it most recently used.
    mutating func image(forKey key: String) -> Image? {
        guard let slot = slotByKey[key] else { return nil }
        if slot != head {
            unlink(slot)
            linkAtHead(slot)
        }
        return images[slot]
    }

    /// Whether `key` is held, without changing the order.
    func contains(_ key: String) -> Bool {
        slotByKey[key] != nil
    }

    /// Whether adding `cost` to the total would overflow `Int` (hostile costs must not trap).
    func canAdd(cost: Int) -> Bool {
        !totalCost.addingReportingOverflow(cost).overflow
    }

    /// Stores `image` as the most recently used entry. `key` must not be held (the caller has
    /// removed any old entry, so that it can release it outside its lock); `cost` must be
    /// non-negative and pass ``canAdd(cost:)``.
    mutating func insert(_ image: Image, forKey key: String, cost: Int) {
        assert(slotByKey[key] == nil, "insert of a key already held")
        let slot: Int
        if firstFree != Self.end {
            slot = firstFree
            firstFree = links[slot].next
            keys[slot] = key
            images[slot] = image
            costs[slot] = cost
        } else {
            slot = links.count
            links.append(Link(previous: Self.end, next: Self.end))
            keys.append(key)
            images.append(image)
            costs.append(cost)
        }
        linkAtHead(slot)
        slotByKey[key] = slot
        totalCost += cost
    }

    /// Removes the entry under `key`; returns its image, for the caller to release outside its lock.
    mutating func remove(forKey key: String) -> Image? {
        guard let slot = slotByKey.removeValue(forKey: key) else { return nil }
        return free(slot)
    }

    /// Removes the least recently used entry; returns its image, or nil if the list is empty.
    mutating func removeLeastRecentlyUsed() -> Image? {
        guard tail != Self.end else { return nil }
        let slot = tail
        slotByKey.removeValue(forKey: keys[slot])
        return free(slot)
    }

    /// Keys from most to least recently used (for tests and diagnostics; O(n)).
    var keysByRecency: [String] {
        var result: [String] = []
        result.reserveCapacity(count)
        var slot = head
        while slot != Self.end {
            result.append(keys[slot])
            slot = links[slot].next
        }
        return result
    }

    /// Slots allocated, used or free (for tests: churn must reuse them, not grow).
    var slotCount: Int { links.count }

    /// Describes the first broken structural invariant, or nil if the list is consistent (O(n)).
    func invariantViolation() -> String? {
        var seen = 0
        var sum = 0
        var previous = Self.end
        var slot = head
        while slot != Self.end {
            seen += 1
            guard seen <= slotByKey.count else { return "the list is longer than the index (cycle?)" }
            guard links[slot].previous == previous else { return "slot \(slot) has a wrong back link" }
            guard slotByKey[keys[slot]] == slot else { return "slot \(slot) is not indexed under its key" }
            guard images[slot] != nil else { return "slot \(slot) is linked but empty" }
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
            guard images[slot] == nil else { return "free slot \(slot) still holds an image" }
            slot = links[slot].next
        }
        guard seen + freeCount == links.count else { return "\(links.count - seen - freeCount) slots leaked" }
        return nil
    }

    private mutating func free(_ slot: Int) -> Image? {
        unlink(slot)
        totalCost -= costs[slot]
        let image = images[slot]
        images[slot] = nil
        keys[slot] = ""
        costs[slot] = 0
        links[slot] = Link(previous: Self.end, next: firstFree)
        firstFree = slot
        return image
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
