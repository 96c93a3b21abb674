#if Server
    import Foundation
    import WebImage

    /// Recent results in memory, up to a byte budget, least recently used out first (O(1) per
    /// lookup, store and eviction).
    ///
    /// The budget counts what an entry really holds, not only the result's bytes: its key, its
    /// header values and the fixed cost of keeping it (``entryOverhead``). Without that, a flood of
    /// tiny results would each cost far more than its bytes say and take the process past the
    /// budget. A result costing more than a quarter of the budget is not kept.
    final class ResultMemoryCache: Sendable {
        /// Bytes an entry holds beyond its result's bytes, key and header text: the result's
        /// storage object and string headers, the allocator's rounding of each allocation, and the
        /// entry's share of the index and of the list's slot arrays. Measured with glibc's
        /// `mallinfo2` over 2,100 to 4,000 stored results of 40 to 800 bytes in WebP, PNG, JPEG and
        /// AVIF: 410 to 540 bytes, the most just after the arrays have doubled.
        static let entryOverhead = 576

        let limit: Int
        // Results removed under the lock are handed back and released after it, so that freeing
        // their bytes never lengthens the critical section every hit waits on.
        private let entries = Locked(LRUList<String, ProcessedResult>())

        init(limit: Int) {
            self.limit = max(0, limit)
        }

        /// Bytes accounted for the entries held, overhead included; at most ``limit``.
        var totalBytes: Int { entries.withLock { $0.totalCost } }

        /// Results held.
        var count: Int { entries.withLock { $0.count } }

        /// What keeping `result` under `key` costs against the budget.
        static func cost(of result: ProcessedResult, key: String) -> Int {
            result.data.count + key.utf8.count + result.contentType.utf8.count + result.etag.utf8.count
                + (result.source.lastModified?.utf8.count ?? 0) + (result.source.cacheControl?.utf8.count ?? 0)
                + entryOverhead
        }

        /// The result for `key`, marking it most recently used.
        func result(forKey key: String) -> ProcessedResult? {
            entries.withLock { $0.value(forKey: key) }
        }

        /// Keeps `result` under `key` as the most recently used entry, evicting the least recently
        /// used until the budget holds; a result above a quarter of the budget is not kept.
        func store(_ result: ProcessedResult, forKey key: String) {
            let cost = Self.cost(of: result, key: key)
            guard cost <= limit / 4 else { return }
            let released = entries.withLock { entries -> [ProcessedResult] in
                var released: [ProcessedResult] = []
                if let old = entries.remove(forKey: key) { released.append(old) }
                // Making room first keeps the sum within the budget, so it cannot overflow.
                while entries.totalCost > limit - cost, let evicted = entries.removeLeastRecentlyUsed() {
                    released.append(evicted)
                }
                entries.insert(result, forKey: key, cost: cost)
                return released
            }
            _ = released
        }
    }
#endif
