import Foundation

/// One `setImage` call's load: the manager's operation once it exists.
final class BindingLoad: Sendable {
    /// The operation and whether the load was cancelled; behind this lock.
    private let state = Locked<(operation: CombinedOperation?, cancelled: Bool)>((nil, false))

    func attach(_ operation: CombinedOperation) {
        let cancelled = state.withLock { state in
            state.operation = operation
            return state.cancelled
        }
        if cancelled { operation.cancel() }
    }

    func cancel() {
        let operation = state.withLock { state in
            state.cancelled = true
            return state.operation
        }
        operation?.cancel()
    }
}

/// A weak reference to a target, for blocks that must not keep it alive.
final class WeakTarget: Sendable {
    weak let target: (any WebImageTarget)?
    init(_ target: any WebImageTarget) { self.target = target }
}

/// The binding state of every target: per operation key the current load and its load state,
/// plus the target's indicator and transition. Keyed by object identity, holding targets weakly.
///
/// Swift has no hook for an arbitrary object's deinit, so a target that went away is noticed
/// by every later registry call (its entry is swept and its loads cancelled), by its own loads'
/// callbacks, and by a sweep that runs a few times a second while loads are unfinished.
final class WebImageTargetRegistry: Sendable {
    struct KeyState {
        var load: BindingLoad?
        var loadState: WebImageLoadState
    }

    struct Entry {
        weak var target: (any WebImageTarget)?
        var keys: [String: KeyState] = [:]
        var latestKey: String?
        var indicator: (any WebImageIndicator)?
        var transition: WebImageTransition?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweeperRunning = false
    }

    static let shared = WebImageTargetRegistry()
    /// How often the sweeper looks for targets that went away while loading.
    static let sweepInterval = Duration.milliseconds(200)

    private let state = Locked(State())

    /// Reads or edits `target`'s entry (made if missing, replaced if a dead target left it).
    func withEntry<T>(_ target: any WebImageTarget, _ body: (inout Entry) -> T) -> T {
        let id = ObjectIdentifier(target)
        let (result, orphaned) = state.withLock { state -> (T, [BindingLoad]) in
            var orphaned: [BindingLoad] = []
            if let existing = state.entries[id], existing.target !== target {
                // A new object at a dead target's address.
                orphaned = existing.keys.values.compactMap(\.load)
                state.entries[id] = nil
            }
            var entry = state.entries[id] ?? Entry(target: target)
            let result = body(&entry)
            state.entries[id] = entry
            return (result, orphaned)
        }
        for load in orphaned { load.cancel() }
        return result
    }

    /// Reads `target`'s entry without making one.
    func entry(of target: any WebImageTarget) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[ObjectIdentifier(target)], entry.target === target else { return nil }
            return entry
        }
    }

    /// Makes `load` current for `key`, returns the load it replaced.
    func begin(_ target: any WebImageTarget, key: String, load: BindingLoad, url: URL?) -> BindingLoad? {
        let previous = withEntry(target) { entry in
            let previous = entry.keys[key]?.load
            entry.keys[key] = KeyState(load: load, loadState: WebImageLoadState(url: url))
            entry.latestKey = key
            return previous
        }
        startSweeper()
        return previous
    }

    func isCurrent(_ target: any WebImageTarget, key: String, load: BindingLoad) -> Bool {
        entry(of: target)?.keys[key]?.load === load
    }

    func update(_ target: any WebImageTarget, key: String, load: BindingLoad, _ edit: (inout WebImageLoadState) -> Void)
    {
        state.withLock { state in
            let id = ObjectIdentifier(target)
            guard var entry = state.entries[id], entry.target === target, var keyState = entry.keys[key],
                keyState.load === load
            else { return }
            edit(&keyState.loadState)
            entry.keys[key] = keyState
            state.entries[id] = entry
        }
    }

    /// Forgets `key`'s load (so none of its callbacks count any more) and returns it.
    func removeLoad(_ target: any WebImageTarget, key: String) -> BindingLoad? {
        state.withLock { state -> BindingLoad? in
            let id = ObjectIdentifier(target)
            guard var entry = state.entries[id], entry.target === target else { return nil }
            let load = entry.keys[key]?.load
            entry.keys[key]?.load = nil
            state.entries[id] = entry
            return load
        }
    }

    /// Drops entries whose target went away and cancels their loads; returns whether any live
    /// target still has an unfinished load.
    @discardableResult
    func sweep() -> Bool {
        let (orphaned, loading) = state.withLock { state -> ([BindingLoad], Bool) in
            var orphaned: [BindingLoad] = []
            var loading = false
            for (id, entry) in state.entries {
                if entry.target == nil {
                    orphaned += entry.keys.values.compactMap(\.load)
                    state.entries[id] = nil
                } else if entry.keys.values.contains(where: { $0.load != nil && !$0.loadState.isFinished }) {
                    loading = true
                }
            }
            return (orphaned, loading)
        }
        for load in orphaned { load.cancel() }
        return loading
    }

    private func startSweeper() {
        let start = state.withLock { state in
            guard !state.sweeperRunning else { return false }
            state.sweeperRunning = true
            return true
        }
        guard start else { return }
        Task.detached(priority: .utility) { [self] in
            while true {
                try? await Task.sleep(for: Self.sweepInterval)
                if sweep() { continue }
                // Stop only if no load began since the sweep looked.
                let stop = state.withLock { state in
                    let loading = state.entries.values.contains { entry in
                        entry.keys.values.contains { $0.load != nil && !$0.loadState.isFinished }
                    }
                    if !loading { state.sweeperRunning = false }
                    return !loading
                }
                if stop { return }
            }
        }
    }
}
