/// The default in-memory cache of decoded images (`SDMemoryCache`): a strict LRU bounded by a
/// cost limit (bytes; ``ImageCache`` charges ``cost(of:forKey:)``, pixels plus key plus
/// bookkeeping) and a count limit.
///
/// Lookups, stores and removals are O(1) and take one lock; a hit costs about as much as a locked
/// dictionary lookup and never hops actors. When a store pushes the cache over a limit, the least
/// recently used images go first; ``image(forKey:)`` counts as a use.
///
/// An image costing more than ``maxEntryCost`` is not kept, so that one huge image cannot flush
/// everything else; storing it still removes any older image under its key, so a stale image is
/// never returned.
///
/// Linux has no memory-warning signal, so nothing purges this cache automatically: the cost limit
/// is the bound. A process that watches its own memory pressure (cgroup events, RSS polling) can
/// shed images with ``trim(toCost:)`` or ``removeAllImages()``.
public final class MemoryCache: MemoryCaching {
    private struct State {
        var entries = LRUList<String, Image>()
        var costLimit: Int
        var countLimit: Int
        let entryFraction: Double

        var maxEntryCost: Int {
            guard costLimit > 0 else { return .max }
            // A fraction outside (0, 1] (or NaN) disables the per-entry cap, but an entry can never
            // exceed the whole limit.
            guard entryFraction > 0, entryFraction < 1 else { return costLimit }
            return Int(clamping: Double(costLimit) * entryFraction)
        }

        /// Evicts least recently used entries until both limits hold, collecting them in `released`.
        mutating func enforceLimits(into released: inout [Image]) {
            if countLimit > 0 {
                while entries.count > countLimit, let image = entries.removeLeastRecentlyUsed() {
                    released.append(image)
                }
            }
            if costLimit > 0 { trim(toCost: costLimit, into: &released) }
        }

        mutating func trim(toCost cost: Int, into released: inout [Image]) {
            while entries.totalCost > cost, let image = entries.removeLeastRecentlyUsed() {
                released.append(image)
            }
        }
    }

    // Images removed under the lock are handed back and released after it: freeing large pixel
    // buffers should not lengthen the critical section every hit waits on.
    private let state: Locked<State>

    /// A cache with the limits of `config`: ``ImageCacheConfig/maxMemoryCost``,
    /// ``ImageCacheConfig/maxMemoryCount`` and ``ImageCacheConfig/maxMemoryEntryFraction``.
    public init(config: ImageCacheConfig = ImageCacheConfig()) {
        state = Locked(
            State(
                costLimit: max(0, config.maxMemoryCost), countLimit: max(0, config.maxMemoryCount),
                entryFraction: config.maxMemoryEntryFraction))
    }

    /// Byte limit on the sum of image costs; 0 (or less) = unlimited. Lowering it evicts at once.
    public var costLimit: Int {
        get { state.withLock { $0.costLimit } }
        set { changeLimits { $0.costLimit = max(0, newValue) } }
    }

    /// Limit on the number of images; 0 (or less) = unlimited. Lowering it evicts at once.
    public var countLimit: Int {
        get { state.withLock { $0.countLimit } }
        set { changeLimits { $0.countLimit = max(0, newValue) } }
    }

    /// Applies a limit change and evicts what no longer fits; evicted images are released after
    /// the lock is dropped, so freeing large pixel buffers never delays a hit.
    private func changeLimits(_ change: (inout State) -> Void) {
        let released = state.withLock { state in
            change(&state)
            var released: [Image] = []
            state.enforceLimits(into: &released)
            return released
        }
        _ = released
    }

    /// The largest cost an image may have and still be kept: ``costLimit`` times the config's
    /// ``ImageCacheConfig/maxMemoryEntryFraction``; `Int.max` when the cost is unlimited.
    public var maxEntryCost: Int {
        state.withLock { $0.maxEntryCost }
    }

    /// Sum of the costs of the images held.
    public var totalCost: Int {
        state.withLock { $0.entries.totalCost }
    }

    /// Number of images held.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// The image for `key`, marking it most recently used; nil on a miss.
    public func image(forKey key: String) -> Image? {
        state.withLock { $0.entries.value(forKey: key) }
    }

    /// Whether an image is held for `key`, without marking it used.
    public func containsImage(forKey key: String) -> Bool {
        state.withLock { $0.entries.contains(key) }
    }

    /// Stores `image` under `key` as the most recently used entry, replacing any older one, then
    /// evicts least recently used images until the limits hold. An image costing more than
    /// ``maxEntryCost`` is not kept (the older entry is removed all the same). A negative `cost`
    /// counts as 0.
    public func setImage(_ image: Image, forKey key: String, cost: Int) {
        let cost = max(0, cost)
        let released = state.withLock { state -> [Image] in
            var released: [Image] = []
            if let old = state.entries.remove(forKey: key) { released.append(old) }
            guard cost <= state.maxEntryCost else { return released }
            if state.costLimit > 0 {
                // Making room first keeps the sum within the limit, so it cannot overflow.
                state.trim(toCost: state.costLimit - cost, into: &released)
            } else if !state.entries.canAdd(cost: cost) {
                // Unlimited, and the sum would overflow: treated like an oversized image, not a trap.
                return released
            }
            state.entries.insert(image, forKey: key, cost: cost)
            state.enforceLimits(into: &released)
            return released
        }
        _ = released
    }

    /// Removes the image for `key`, if any.
    public func removeImage(forKey key: String) {
        let released = state.withLock { $0.entries.remove(forKey: key) }
        _ = released
    }

    /// Removes every image.
    public func removeAllImages() {
        let released = state.withLock { state in
            let entries = state.entries
            state.entries = LRUList()
            return entries
        }
        _ = released
    }

    /// Evicts least recently used images until ``totalCost`` is at most `cost` (0 or less empties
    /// the cache). The limits stay as they are.
    public func trim(toCost cost: Int) {
        let released = state.withLock { state in
            var released: [Image] = []
            state.trim(toCost: max(0, cost), into: &released)
            return released
        }
        _ = released
    }
}

extension MemoryCache {
    /// Bytes an entry takes beyond its image's ``Image/memoryCost`` and its key's bytes: the
    /// bitmap's object and the allocator's rounding of its pixel buffer, the key's string storage,
    /// and the entry's share of the index and of the list's slot arrays. Measured as the growth
    /// of resident memory over 300,000 stored one-pixel images under 52-byte keys: 368 bytes an
    /// entry, rounded up.
    public static let entryOverhead = 384

    /// What keeping `image` under `key` takes: its ``Image/memoryCost``, the key's UTF-8 bytes
    /// and ``entryOverhead``. ``ImageCache`` stores at this cost, so that the cost limit bounds
    /// the memory a flood of tiny images takes, not only their pixels.
    public static func cost(of image: Image, forKey key: String) -> Int {
        let (sum, overflow) = image.memoryCost.addingReportingOverflow(key.utf8.count + entryOverhead)
        return overflow ? .max : sum
    }

    /// Keys from most to least recently used, without changing the order (O(n); for tests).
    var keysByRecency: [String] {
        state.withLock { $0.entries.keysByRecency }
    }

    /// Slots the entry list has allocated, used or free (for tests).
    var slotCount: Int {
        state.withLock { $0.entries.slotCount }
    }

    /// Describes the first broken invariant (list structure, exact total cost, limits), or nil if
    /// none is broken (O(n); for tests).
    func invariantViolation() -> String? {
        state.withLock { state in
            if let problem = state.entries.invariantViolation() { return problem }
            if state.costLimit > 0, state.entries.totalCost > state.costLimit {
                return "total cost \(state.entries.totalCost) is over the limit \(state.costLimit)"
            }
            if state.countLimit > 0, state.entries.count > state.countLimit {
                return "\(state.entries.count) entries is over the limit \(state.countLimit)"
            }
            return nil
        }
    }
}

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
