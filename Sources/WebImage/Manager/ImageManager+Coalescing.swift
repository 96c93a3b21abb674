import Foundation
import Synchronization

/// What makes two loads interchangeable: the same full key, options, decode and encode
/// options, caches, loader, coder and serializer. The transformer and the key filter are
/// compared through the full key, which names them (SDWebImage's contract: equal keys, equal
/// results).
///
/// Loads are never coalesced when their context holds something whose identity cannot be
/// compared, because sharing would silently apply one caller's choice to another: request
/// and response modifiers, a decryptor, a response handler (it must see its own response),
/// custom keys, a coder or serializer that is not a class instance. Nor are
/// ``WebImageOptions/refreshCached`` loads, which deliver twice.
struct LoadCoalescingKey: Hashable, Sendable {
    let fullKey: String
    let options: UInt
    let decodeOptions: ImageDecodeOptions
    let encodeOptions: ImageEncodeOptions?
    let objects: [ObjectIdentifier?]
    let cacheTypes: [ImageCacheType?]

    init?(_ load: ImageManager.PreparedLoad) {
        let context = load.context
        guard !load.options.contains(.refreshCached), context.custom.isEmpty, context.loaderCachedImage == nil,
            context.downloadRequestModifier == nil, context.downloadResponseModifier == nil,
            context.downloadDecryptor == nil, context.downloadResponseHandler == nil,
            let cache = Self.identity(load.cache), let loader = Self.identity(load.loader),
            let original = Self.optionalIdentity(context.originalImageCache),
            let coder = Self.optionalIdentity(context.imageCoder),
            let serializer = Self.optionalIdentity(context.cacheSerializer)
        else { return nil }
        fullKey = load.fullKey
        options = load.options.rawValue
        decodeOptions = ImageDecodeOptions(context: context, options: load.options, cacheKey: load.fullKey)
        encodeOptions = context.imageEncodeOptions
        objects = [cache, loader, original, coder, serializer]
        cacheTypes = [
            context.queryCacheType, context.storeCacheType, context.originalQueryCacheType,
            context.originalStoreCacheType,
        ]
    }

    /// `.some(nil)` for no value, `.some(id)` for a class instance, nil (cannot compare) otherwise.
    private static func optionalIdentity(_ value: Any?) -> ObjectIdentifier?? {
        guard let value else { return .some(nil) }
        return identity(value).map { .some($0) }
    }

    private static func identity(_ value: Any) -> ObjectIdentifier? {
        guard type(of: value) is AnyClass else { return nil }
        return ObjectIdentifier(value as AnyObject)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fullKey)
        hasher.combine(options)
    }
}

/// One engine run shared by every load with the same ``LoadCoalescingKey``: events go to all
/// subscribers, and the run is cancelled when the last one leaves (Nuke's reference-counted
/// cancellation, applied to the cache read, decode and transform as well as the download).
final class SharedLoad: Sendable {
    typealias Outcome = Result<ImageManager.LoadOutcome, WebImageError>

    private struct Subscriber {
        var sink: ImageManager.LoadSink
        var resume: @Sendable (Outcome) -> Void
    }

    private struct State: ~Copyable {
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        var done = false
    }

    /// Every mutable field sits behind this lock; callbacks run outside it.
    private let state = Locked(State())
    /// The engine's own operation: cancelled when nobody waits any more.
    let operation: CombinedOperation
    /// Takes this run out of the manager's table, so later loads start afresh.
    private let detach: @Sendable () -> Void

    init(url: URL, detach: @escaping @Sendable () -> Void) {
        operation = CombinedOperation(url: url)
        self.detach = detach
    }

    /// The sink the engine reports to: a fan-out to the current subscribers.
    var sink: ImageManager.LoadSink {
        ImageManager.LoadSink(
            progress: { [self] received, expected in
                for sink in sinks() { sink.progress?(received, expected) }
            },
            partialImage: { [self] image in
                for sink in sinks() { sink.partialImage?(image) }
            },
            cachedImage: { [self] result in
                for sink in sinks() { sink.cachedImage?(result) }
            })
    }

    private func sinks() -> [ImageManager.LoadSink] {
        state.withLock { state in state.subscribers.values.map(\.sink) }
    }

    /// Adds a subscriber; nil if the run already finished (start a new one).
    func subscribe(sink: ImageManager.LoadSink, resume: @escaping @Sendable (Outcome) -> Void) -> Int? {
        state.withLock { state in
            guard !state.done else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(sink: sink, resume: resume)
            return id
        }
    }

    /// Removes a subscriber, which gets ``WebImageError/cancelled``; the last one out cancels the run.
    func unsubscribe(_ id: Int) {
        let (subscriber, isLast) = state.withLock { state in
            let removed = state.subscribers.removeValue(forKey: id)
            let isLast = removed != nil && state.subscribers.isEmpty && !state.done
            // Nobody may join a run that is being cancelled.
            if isLast { state.done = true }
            return (removed, isLast)
        }
        subscriber?.resume(.failure(.cancelled))
        if isLast {
            detach()
            operation.cancel()
        }
    }

    /// Delivers the run's outcome to everyone still subscribed.
    func finish(_ outcome: Outcome) {
        let subscribers = state.withLock { state in
            state.done = true
            let taken = Array(state.subscribers.values)
            state.subscribers.removeAll()
            return taken
        }
        for subscriber in subscribers { subscriber.resume(outcome) }
    }
}

extension ImageManager {
    /// Runs `load`, sharing the run with concurrent loads that need the same result.
    func coalescedRun(_ load: PreparedLoad, operation: CombinedOperation, sink: LoadSink) async throws(WebImageError)
        -> LoadOutcome
    {
        guard let key = LoadCoalescingKey(load) else {
            return try await run(load, operation: operation, sink: sink)
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SharedLoad.Outcome, Never>) in
                let resume: @Sendable (SharedLoad.Outcome) -> Void = { continuation.resume(returning: $0) }
                while true {
                    let (shared, isNew) = sharedLoads.withLock { table -> (SharedLoad, Bool) in
                        if let existing = table[key] { return (existing, false) }
                        let created = SharedLoad(url: load.url) { [self] in removeSharedLoad(forKey: key) }
                        table[key] = created
                        return (created, true)
                    }
                    guard let id = shared.subscribe(sink: sink, resume: resume) else {
                        // Finished or abandoned between lookup and subscribe: start afresh.
                        removeSharedLoad(shared, forKey: key)
                        continue
                    }
                    operation.link(to: shared.operation) { shared.unsubscribe(id) }
                    if isNew {
                        startShared(shared, key: key, load: load)
                    } else {
                        telemetry.loadJoined(url: load.url, key: load.fullKey)
                    }
                    break
                }
            }
        } onCancel: {
            operation.cancel()
        }
        return try result.get()
    }

    /// Runs in the first caller's task, whose priority the run takes (see
    /// ``WebImageOptions/inheritedTaskPriority``).
    private func startShared(_ shared: SharedLoad, key: LoadCoalescingKey, load: PreparedLoad) {
        let task = Task.detached(priority: load.options.inheritedTaskPriority) { [self] in
            let outcome: SharedLoad.Outcome
            do throws(WebImageError) {
                outcome = .success(try await run(load, operation: shared.operation, sink: shared.sink))
            } catch {
                outcome = .failure(error)
            }
            removeSharedLoad(shared, forKey: key)
            shared.finish(outcome)
        }
        shared.operation.attach(task)
    }

    private func removeSharedLoad(_ shared: SharedLoad? = nil, forKey key: LoadCoalescingKey) {
        sharedLoads.withLock { table in
            if shared == nil || table[key] === shared { table.removeValue(forKey: key) }
        }
    }
}
