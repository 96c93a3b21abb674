import Foundation
import WebImage

/// Recent results in memory, up to a byte budget, least recently used out first.
///
/// Eviction drops the oldest tenth of the entries in one go (by their last use), so its sort is
/// paid once per many inserts.
final class ResultMemoryCache: Sendable {
    private struct Entry {
        var result: ProcessedResult
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    var totalBytes: Int { state.withLock { $0.bytes } }

    func result(forKey key: String) -> ProcessedResult? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.result
        }
    }

    func store(_ result: ProcessedResult, forKey key: String) {
        let cost = result.data.count
        guard cost <= limit / 4 else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(result: result, lastUse: state.clock), forKey: key) {
                state.bytes -= old.result.data.count
            }
            state.bytes += cost
            guard state.bytes > limit else { return }
            let oldest = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }
            var index = 0
            let batch = max(1, oldest.count / 10)
            while index < oldest.count, state.bytes > limit || index < batch {
                state.bytes -= oldest[index].value.result.data.count
                state.entries[oldest[index].key] = nil
                index += 1
            }
        }
    }
}
