import Foundation
import WebImage

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
        /// The player of the animation shown for this key (``AnimatedWebImageTarget`` only).
        var player: AnimatedImagePlayer?
    }

    struct Entry {
        weak var target: (any WebImageTarget)?
        var keys: [String: KeyState] = [:]
        var latestKey: String?
        var indicator: (any WebImageIndicator)?
        var transition: WebImageTransition?

        /// Whether the sweeper must watch this target: a load is unfinished, or a player plays
        /// for it (and must be stopped if the target goes away).
        var needsWatching: Bool {
            keys.values.contains { ($0.load != nil && !$0.loadState.isFinished) || $0.player != nil }
        }
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
        let (result, orphaned, players) = state.withLock { state -> (T, [BindingLoad], [AnimatedImagePlayer]) in
            var orphaned: [BindingLoad] = []
            var players: [AnimatedImagePlayer] = []
            if let existing = state.entries[id], existing.target !== target {
                // A new object at a dead target's address.
                orphaned = existing.keys.values.compactMap(\.load)
                players = existing.keys.values.compactMap(\.player)
                state.entries[id] = nil
            }
            var entry = state.entries[id] ?? Entry(target: target)
            let result = body(&entry)
            state.entries[id] = entry
            return (result, orphaned, players)
        }
        for load in orphaned { load.cancel() }
        for player in players { player.stop() }
        return result
    }

    /// Reads `target`'s entry without making one.
    func entry(of target: any WebImageTarget) -> Entry? {
        state.withLock { state in
            guard let entry = state.entries[ObjectIdentifier(target)], entry.target === target else { return nil }
            return entry
        }
    }

    /// Makes `load` current for `key`; returns the load it replaced and the player of the
    /// animation shown until now, which the caller stops.
    func begin(
        _ target: any WebImageTarget, key: String, load: BindingLoad, url: URL?
    ) -> (load: BindingLoad?, player: AnimatedImagePlayer?) {
        let previous = withEntry(target) { entry in
            let previous = (entry.keys[key]?.load, entry.keys[key]?.player)
            entry.keys[key] = KeyState(load: load, loadState: WebImageLoadState(url: url))
            entry.latestKey = key
            return previous
        }
        startSweeper()
        return previous
    }

    /// Keeps `player` as the one `load` shows for `key`; false (and the caller stops it) if
    /// `load` is no longer current.
    func attach(_ player: AnimatedImagePlayer, to target: any WebImageTarget, key: String, load: BindingLoad) -> Bool {
        let attached = state.withLock { state in
            let id = ObjectIdentifier(target)
            guard var entry = state.entries[id], entry.target === target, var keyState = entry.keys[key],
                keyState.load === load
            else { return false }
            keyState.player = player
            entry.keys[key] = keyState
            state.entries[id] = entry
            return true
        }
        if attached { startSweeper() }
        return attached
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

    /// Drops entries whose target went away, cancels their loads and stops their players;
    /// returns whether any live target still needs watching (an unfinished load or a player).
    @discardableResult
    func sweep() -> Bool {
        let (orphaned, players, loading) = state.withLock { state -> ([BindingLoad], [AnimatedImagePlayer], Bool) in
            var orphaned: [BindingLoad] = []
            var players: [AnimatedImagePlayer] = []
            var loading = false
            for (id, entry) in state.entries {
                if entry.target == nil {
                    orphaned += entry.keys.values.compactMap(\.load)
                    players += entry.keys.values.compactMap(\.player)
                    state.entries[id] = nil
                } else if entry.needsWatching {
                    loading = true
                }
            }
            return (orphaned, players, loading)
        }
        for load in orphaned { load.cancel() }
        for player in players { player.stop() }
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
                    let loading = state.entries.values.contains(where: \.needsWatching)
                    if !loading { state.sweeperRunning = false }
                    return !loading
                }
                if stop { return }
            }
        }
    }
}
