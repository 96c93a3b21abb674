/// How ``ImageCachesManager`` runs one kind of operation over its caches
/// (`SDImageCachesManagerOperationPolicy`).
public enum ImageCachesManagerOperationPolicy: Sendable {
    /// One cache after the other, highest priority first. Queries and contains checks stop at
    /// the first hit.
    case serial
    /// All caches at once. For queries and contains checks a memory hit in any cache wins over
    /// a disk hit, and among hits of one tier the highest-priority cache's wins, whichever
    /// answers first (as in SDWebImage, whose memory lookups answer synchronously).
    case concurrent
    /// Only the highest-priority cache (the last added).
    case highestOnly
    /// Only the lowest-priority cache (the first added).
    case lowestOnly
}

/// Several ``ImageCaching`` caches behind one (`SDImageCachesManager`). The **last added has the
/// highest priority**. With a single cache every call goes straight to it.
public final class ImageCachesManager: ImageCaching {
    struct State {
        var caches: [any ImageCaching]
        var queryPolicy = ImageCachesManagerOperationPolicy.serial
        var storePolicy = ImageCachesManagerOperationPolicy.highestOnly
        var removePolicy = ImageCachesManagerOperationPolicy.concurrent
        var containsPolicy = ImageCachesManagerOperationPolicy.serial
        var clearPolicy = ImageCachesManagerOperationPolicy.concurrent
    }

    /// The cache list and the policies; every stored property is behind this lock.
    let state: Locked<State>

    /// The manager of the shared cache, holding ``ImageCache/shared``.
    public static let shared = ImageCachesManager(caches: [ImageCache.shared])

    /// A manager of `caches`, lowest priority first.
    public init(caches: [any ImageCaching] = []) {
        state = Locked(State(caches: caches))
    }

    /// The caches, lowest priority first.
    public var caches: [any ImageCaching] {
        get { state.withLock { $0.caches } }
        set { state.withLock { $0.caches = newValue } }
    }

    /// Adds `cache` with the highest priority.
    public func addCache(_ cache: any ImageCaching) {
        state.withLock { $0.caches.append(cache) }
    }

    /// Removes `cache` (compared by identity; caches that are values cannot be told apart and
    /// are left in place — set ``caches`` instead).
    public func removeCache(_ cache: any ImageCaching) {
        guard let target = ObjectIdentifier(instance: cache) else { return }
        state.withLock { state in
            state.caches.removeAll { ObjectIdentifier(instance: $0) == target }
        }
    }

    /// Policy of queries (default ``ImageCachesManagerOperationPolicy/serial``).
    public var queryOperationPolicy: ImageCachesManagerOperationPolicy {
        get { state.withLock { $0.queryPolicy } }
        set { state.withLock { $0.queryPolicy = newValue } }
    }
    /// Policy of stores (default ``ImageCachesManagerOperationPolicy/highestOnly``).
    public var storeOperationPolicy: ImageCachesManagerOperationPolicy {
        get { state.withLock { $0.storePolicy } }
        set { state.withLock { $0.storePolicy = newValue } }
    }
    /// Policy of removals (default ``ImageCachesManagerOperationPolicy/concurrent``).
    public var removeOperationPolicy: ImageCachesManagerOperationPolicy {
        get { state.withLock { $0.removePolicy } }
        set { state.withLock { $0.removePolicy = newValue } }
    }
    /// Policy of contains checks (default ``ImageCachesManagerOperationPolicy/serial``).
    /// SDWebImage's code switches on the *clear* policy here; its header documents this
    /// property as the one that applies, and so does this class.
    public var containsOperationPolicy: ImageCachesManagerOperationPolicy {
        get { state.withLock { $0.containsPolicy } }
        set { state.withLock { $0.containsPolicy = newValue } }
    }
    /// Policy of clears (default ``ImageCachesManagerOperationPolicy/concurrent``).
    public var clearOperationPolicy: ImageCachesManagerOperationPolicy {
        get { state.withLock { $0.clearPolicy } }
        set { state.withLock { $0.clearPolicy = newValue } }
    }

    /// The caches an operation under `policy` uses, in the order it uses them (highest first).
    func routed(_ policy: KeyPath<State, ImageCachesManagerOperationPolicy>)
        -> (ImageCachesManagerOperationPolicy, [any ImageCaching])
    {
        state.withLock { state in
            let caches = state.caches
            switch state[keyPath: policy] {
            case .highestOnly: return (.highestOnly, caches.last.map { [$0] } ?? [])
            case .lowestOnly: return (.lowestOnly, caches.first.map { [$0] } ?? [])
            case let other: return (other, caches.reversed())
            }
        }
    }
}
