import Synchronization

/// What a coalesced work fails with: any error type that can say "this subscriber left".
package protocol InFlightFailure: Error {
    /// The error a subscriber gets when it leaves before the result (or is cancelled).
    static var cancelled: Self { get }
}

extension WebImageError: InFlightFailure {}

/// Work shared by everyone who asks for the same key while it runs: the library's one
/// coalescing primitive. The manager shares whole loads through it, the cache its disk reads,
/// and the downloader its transfers and its decodes.
///
/// The rules (each checked once in `InFlightTableTests`):
/// 1. The first subscriber of a key starts the work; later subscribers of the key join it.
/// 2. Every subscriber gets the work's result, or an error as soon as it leaves
///    (`Failure.cancelled` unless it names another); leaving never disturbs the others.
/// 3. When the last subscriber leaves, the work is abandoned: what runs it is cancelled, its
///    ``Work/onAbandoned(_:)`` handler runs, and the key is free at once, so the next
///    subscriber starts new work rather than joining work that is stopping.
/// 4. Finished work is never joined: its key is free before its result is handed out.
/// 5. The work runs at the highest priority of its subscribers: a subscriber that joins or is
///    raised above it escalates what runs it and calls its ``Work/onPriorityRaised(_:)`` handler.
/// 6. Events the work sends reach every subscriber present when they are sent, in order.
/// 7. The work's latest status (``Work/setStatus(_:)``, an event that says where it stands)
///    also reaches each later subscriber, first thing when it joins.
///
/// State changes happen under one lock per table and one per work (a subscription's state is
/// its work's); results, events, handlers and cancellation are handed out after the lock is
/// released, never under it.
package final class InFlightTable<Key: Hashable & Sendable, Value: Sendable, Event: Sendable, Failure: InFlightFailure>:
    Sendable
{
    /// What a work does: it gets its handle, to send events and see whether anyone still waits.
    package typealias Body = @Sendable (Work) async throws(Failure) -> Value
    package typealias Completion = @Sendable (Result<Value, Failure>) -> Void
    package typealias EventHandler = @Sendable (Event) -> Void

    private let works = Locked([Key: Work]())
    /// Subscriptions that exist, finished or not: a leak shows here (for tests and diagnostics).
    fileprivate let liveSubscriptions = Atomic<Int>(0)

    package init() {}

    /// Subscriptions of this table still held by anyone, for tests and diagnostics: once every
    /// caller has its result and lets go, it is back to 0.
    package var liveSubscriptionCount: Int { liveSubscriptions.load(ordering: .relaxed) }

    /// Works running now.
    package var count: Int { works.withLock { $0.count } }

    /// Whether work for `key` runs now.
    package func contains(_ key: Key) -> Bool { works.withLock { $0[key] != nil } }

    /// Subscribers of the works whose keys match `predicate` (for tests and diagnostics).
    package func subscriberCount(where predicate: (Key) -> Bool) -> Int {
        let matching = works.withLock { works in works.filter { predicate($0.key) }.map(\.value) }
        return matching.reduce(0) { $0 + $1.subscriberCount }
    }

    /// Subscribes to the work for `key`. If none runs, this subscription creates it and calls
    /// `start` with it before returning, on this thread: `start` sets the work up (a place in a
    /// queue, a subscription to other work) and runs it (``Work/run(priority:_:)`` or
    /// ``Work/run(in:_:)``). `completion`, if given, gets the result exactly once, on whichever
    /// thread produced it; otherwise await ``Subscription/value()``.
    package func subscribe(
        _ key: Key, priority: TaskPriority, events: EventHandler? = nil, completion: Completion? = nil,
        start: (Work) -> Void
    ) -> Subscription {
        let (subscription, escalation, status) = works.withLock {
            works -> (Subscription, Work.Escalation?, Event?) in
            // A closed work (finishing, or abandoned) refuses the newcomer: a new one replaces it.
            if let existing = works[key],
                let joined = existing.add(priority: priority, events: events, completion: completion)
            {
                return joined
            }
            let created = Work(table: self, key: key)
            works[key] = created
            return (created.first(priority: priority, events: events, completion: completion), nil, nil)
        }
        if !subscription.joinedRunningWork {
            start(subscription.work)
        } else if let escalation {
            subscription.work.raised(escalation)
        }
        if let status, let events { events(status) }
        return subscription
    }

    /// The result of the work for `key`, started with `body` in a task of its own if none runs.
    /// Cancelling the calling task leaves the work at once with `Failure.cancelled`.
    package func value(for key: Key, priority: TaskPriority? = nil, events: EventHandler? = nil, body: @escaping Body)
        async throws(Failure) -> Value
    {
        if Task.isCancelled { throw .cancelled }
        return try await subscribe(key, priority: priority ?? Task.currentPriority, events: events) { $0.run(body) }
            .value()
    }

    /// Ends every subscriber of every work with `Failure.cancelled`, abandoning the works.
    package func cancelAll() {
        let all = works.withLock { Array($0.values) }
        for work in all { work.cancelAll() }
    }

    fileprivate func remove(_ work: Work, forKey key: Key) {
        works.withLock { works in
            if works[key] === work { works[key] = nil }
        }
    }
}

extension InFlightTable {
    /// One subscriber's hold on a work: its result, its cancel and its priority.
    package final class Subscription: Sendable {
        /// The work subscribed to.
        package let work: Work
        /// Whether it joined work that was running already (rather than starting it).
        package let joinedRunningWork: Bool
        let events: EventHandler?
        let completion: Completion?
        /// The result once delivered, and a task waiting for it; guarded by the work's lock.
        nonisolated(unsafe) fileprivate var result: Result<Value, Failure>?
        nonisolated(unsafe) fileprivate var waiter: UnsafeContinuation<Result<Value, Failure>, Never>?

        fileprivate init(work: Work, joined: Bool, events: EventHandler?, completion: Completion?) {
            self.work = work
            joinedRunningWork = joined
            self.events = events
            self.completion = completion
            work.table.liveSubscriptions.add(1, ordering: .relaxed)
        }

        deinit {
            work.table.liveSubscriptions.subtract(1, ordering: .relaxed)
        }

        /// The work's result, or the error this subscription left with. Cancelling the calling
        /// task cancels the subscription.
        package func value() async throws(Failure) -> Value {
            let result = await withTaskCancellationHandler {
                // Resumed exactly once: the work hands every subscription its result once.
                await withUnsafeContinuation { continuation in
                    if let ready = work.wait(self, continuation) { continuation.resume(returning: ready) }
                }
            } onCancel: {
                cancel()
            }
            return try result.get()
        }

        /// Leaves the work: the subscriber gets `error` now (unless the result came first), and
        /// the work is abandoned if this was its last subscriber. Idempotent.
        package func cancel(with error: Failure = .cancelled) {
            work.remove(self, error: error)
        }

        /// Raises this subscriber's priority, and the work's if it is now the highest.
        package func raisePriority(to priority: TaskPriority) {
            work.raise(self, to: priority)
        }

        /// Hands the result to the completion and the waiting task, outside the work's lock.
        fileprivate func hand(
            _ result: Result<Value, Failure>, to waiter: UnsafeContinuation<Result<Value, Failure>, Never>?
        ) {
            completion?(result)
            waiter?.resume(returning: result)
        }
    }

    /// One running work and its subscribers.
    package final class Work: Sendable {
        private struct Entry {
            let subscription: Subscription
            var priority: TaskPriority
        }

        /// What runs the work: its own task, or a job of a ``SlotQueue`` worker.
        fileprivate enum Runner {
            case task(Task<Void, Never>)
            case job(SlotQueue.Job)

            func cancel() {
                switch self {
                case .task(let task): task.cancel()
                case .job(let job): job.interrupt()
                }
            }

            func escalate(to priority: TaskPriority) {
                switch self {
                case .task(let task): task.escalatePriority(to: priority)
                case .job(let job): job.escalate(to: priority)
                }
            }
        }

        /// What a raise must do outside the lock: escalate the runner, tell the handler.
        fileprivate struct Escalation {
            var priority: TaskPriority
            var runner: Runner?
            var handler: (@Sendable (TaskPriority) -> Void)?
        }

        private struct State {
            var entries: [Entry] = []
            /// The event handlers of `entries`, kept apart so that sending copies no closures.
            var listeners: [EventHandler] = []
            var priority = TaskPriority.medium
            var runner: Runner?
            /// Finished, or every subscriber left: nobody may join any more.
            var isClosed = false
            /// Every subscriber left before the result.
            var isAbandoned = false
            var raiseHandler: (@Sendable (TaskPriority) -> Void)?
            var abandonHandler: (@Sendable () -> Void)?
            /// The latest ``setStatus(_:)``, for subscribers that join later.
            var status: Event?
        }

        private let state = Locked(State())
        /// Held strongly: a running work keeps its table; the table lets go of the work when it ends.
        fileprivate let table: InFlightTable
        private let key: Key

        fileprivate init(table: InFlightTable, key: Key) {
            self.table = table
            self.key = key
        }

        /// Subscribers present now.
        var subscriberCount: Int { state.withLock { $0.entries.count } }

        /// The highest priority of the subscribers.
        package var priority: TaskPriority { state.withLock { $0.priority } }

        /// Whether every subscriber has left.
        package var isAbandoned: Bool { state.withLock { $0.isAbandoned } }

        /// Whether a subscriber present now listens to events: with none, ``send(_:)`` does
        /// nothing, and work that exists only to make an event can be skipped.
        package var hasListeners: Bool { state.withLock { !$0.listeners.isEmpty } }

        /// Runs `body` in a task of its own, at `priority` (by default the work's), and hands
        /// its result to the subscribers. The task starts on this thread (as `Task.immediate`
        /// does) and leaves it at its first suspension: no trip through the executor's queue to
        /// set the work off. If every subscriber already left, it starts cancelled.
        package func run(priority: TaskPriority? = nil, _ body: @escaping Body) {
            let (workPriority, abandoned) = state.withLock { ($0.priority, $0.isAbandoned) }
            let operation: @Sendable () async -> Void = { [self] in finish(await Self.outcome(of: body, self)) }
            guard !abandoned else {
                Task(priority: priority ?? workPriority, operation: operation).cancel()
                return
            }
            let task = Task.immediate(priority: priority ?? workPriority, operation: operation)
            attach(.task(task))
        }

        /// Runs `body` in the calling ``SlotQueue`` job, and hands its result to the
        /// subscribers; abandoning the work interrupts the job.
        package func run(in job: SlotQueue.Job, _ body: @escaping Body) async {
            attach(.job(job))
            finish(isAbandoned ? .failure(.cancelled) : await Self.outcome(of: body, self))
        }

        /// Hands `result` to the subscribers, for work whose body runs neither in a task of its own
        /// nor in a queue job: on the file threads, or in another work's completion. Such work
        /// checks ``isAbandoned`` to stop early. Only the first result counts.
        package func complete(_ result: Result<Value, Failure>) {
            finish(result)
        }

        private static func outcome(of body: Body, _ work: Work) async -> Result<Value, Failure> {
            do throws(Failure) {
                return .success(try await body(work))
            } catch {
                return .failure(error)
            }
        }

        private func attach(_ runner: Runner) {
            let cancel = state.withLock { state in
                // A body that already finished leaves nothing to cancel.
                if !state.isClosed { state.runner = runner }
                return state.isAbandoned
            }
            if cancel { runner.cancel() }
        }

        /// Hands `event` to every subscriber present now; with none listening, the event is not
        /// even made.
        package func send(_ event: @autoclosure () -> Event) {
            let listeners = state.withLock { $0.listeners }
            guard !listeners.isEmpty else { return }
            let event = event()
            for listener in listeners { listener(event) }
        }

        /// Records `status` as where the work stands and sends it like any event; a subscriber
        /// that joins later gets the latest status when it joins. It may get it just after a
        /// newer event sent while it joined: statuses should say something a subscriber can
        /// tell the order of (a stage that only moves forward, say).
        package func setStatus(_ status: Event) {
            let listeners = state.withLock { state in
                state.status = status
                return state.listeners
            }
            for listener in listeners { listener(status) }
        }

        /// Calls `handler` with the work's priority now and whenever it rises (one handler per
        /// work). Work that already ended keeps no handler.
        package func onPriorityRaised(_ handler: @escaping @Sendable (TaskPriority) -> Void) {
            let current = state.withLock { state -> TaskPriority? in
                guard !state.isClosed else { return nil }
                state.raiseHandler = handler
                return state.priority
            }
            if let current { handler(current) }
        }

        /// Calls `handler` once if every subscriber leaves before the work finishes (at once if
        /// they already have): for undoing what the work set up before it runs, such as a place
        /// in a queue. One handler per work.
        package func onAbandoned(_ handler: @escaping @Sendable () -> Void) {
            let abandoned = state.withLock { state in
                if !state.isClosed { state.abandonHandler = handler }
                return state.isAbandoned
            }
            if abandoned { handler() }
        }

        /// Cancels what runs the work without ending any subscriber: the work then ends them
        /// all with whatever error it makes of being interrupted (a downloader's idle timeout).
        package func interrupt() {
            state.withLock { $0.runner }?.cancel()
        }

        // MARK: Subscribers (called by the table and the subscriptions)

        /// The first subscriber of a new work (under the table's lock).
        fileprivate func first(priority: TaskPriority, events: EventHandler?, completion: Completion?) -> Subscription {
            let subscription = Subscription(work: self, joined: false, events: events, completion: completion)
            state.withLock { state in
                state.entries = [Entry(subscription: subscription, priority: priority)]
                if let events { state.listeners = [events] }
                state.priority = priority
            }
            return subscription
        }

        /// Adds a subscriber (under the table's lock), with the status it is to get; nil if the
        /// work is closed.
        fileprivate func add(priority: TaskPriority, events: EventHandler?, completion: Completion?)
            -> (Subscription, Escalation?, status: Event?)?
        {
            state.withLock { state -> (Subscription, Escalation?, status: Event?)? in
                guard !state.isClosed else { return nil }
                let subscription = Subscription(work: self, joined: true, events: events, completion: completion)
                state.entries.append(Entry(subscription: subscription, priority: priority))
                if let events { state.listeners.append(events) }
                guard priority > state.priority else { return (subscription, nil, state.status) }
                state.priority = priority
                return (
                    subscription, Escalation(priority: priority, runner: state.runner, handler: state.raiseHandler),
                    state.status
                )
            }
        }

        /// The result if it is there already, else records `waiter` to get it.
        fileprivate func wait(
            _ subscription: Subscription, _ waiter: UnsafeContinuation<Result<Value, Failure>, Never>
        ) -> Result<Value, Failure>? {
            state.withLock { _ in
                if subscription.result == nil { subscription.waiter = waiter }
                return subscription.result
            }
        }

        fileprivate func remove(_ subscription: Subscription, error: Failure) {
            typealias Waiter = UnsafeContinuation<Result<Value, Failure>, Never>
            let (waiter, abandoned) = state.withLock { state -> (Waiter??, (Runner?, (@Sendable () -> Void)?)?) in
                guard let index = state.entries.firstIndex(where: { $0.subscription === subscription }) else {
                    return (nil, nil)
                }
                state.entries.remove(at: index)
                if subscription.events != nil { state.listeners = state.entries.compactMap(\.subscription.events) }
                let waiter = Self.take(subscription, result: .failure(error))
                guard state.entries.isEmpty, !state.isClosed else { return (.some(waiter), nil) }
                state.isClosed = true
                state.isAbandoned = true
                defer {
                    state.runner = nil
                    state.raiseHandler = nil
                    state.abandonHandler = nil
                }
                return (.some(waiter), (state.runner, state.abandonHandler))
            }
            guard let waiter else { return }
            if let (runner, handler) = abandoned {
                table.remove(self, forKey: key)
                subscription.hand(.failure(error), to: waiter)
                runner?.cancel()
                handler?()
            } else {
                subscription.hand(.failure(error), to: waiter)
            }
        }

        /// Records `result` on a subscription (under this work's lock) and takes its waiter.
        private static func take(_ subscription: Subscription, result: Result<Value, Failure>)
            -> UnsafeContinuation<Result<Value, Failure>, Never>?
        {
            subscription.result = result
            defer { subscription.waiter = nil }
            return subscription.waiter
        }

        fileprivate func raise(_ subscription: Subscription, to priority: TaskPriority) {
            let escalation = state.withLock { state -> Escalation? in
                guard let index = state.entries.firstIndex(where: { $0.subscription === subscription }),
                    priority > state.entries[index].priority
                else { return nil }
                state.entries[index].priority = priority
                guard priority > state.priority else { return nil }
                state.priority = priority
                return Escalation(priority: priority, runner: state.runner, handler: state.raiseHandler)
            }
            if let escalation { raised(escalation) }
        }

        fileprivate func raised(_ escalation: Escalation) {
            escalation.runner?.escalate(to: escalation.priority)
            escalation.handler?(escalation.priority)
        }

        fileprivate func cancelAll() {
            let subscriptions = state.withLock { state in state.entries.map(\.subscription) }
            for subscription in subscriptions { subscription.cancel() }
        }

        private func finish(_ result: Result<Value, Failure>) {
            typealias Waiter = UnsafeContinuation<Result<Value, Failure>, Never>
            let handed = state.withLock { state -> [(Subscription, Waiter?)] in
                // Every subscriber has its result already (or left).
                guard !state.isClosed || !state.entries.isEmpty else { return [] }
                state.isClosed = true
                state.runner = nil
                state.listeners = []
                state.raiseHandler = nil
                state.abandonHandler = nil
                state.status = nil
                defer { state.entries = [] }
                return state.entries.map { ($0.subscription, Self.take($0.subscription, result: result)) }
            }
            // Free the key first: a subscriber that reacts to the result by asking again
            // must start new work, not find this finished one.
            table.remove(self, forKey: key)
            for (subscription, waiter) in handed { subscription.hand(result, to: waiter) }
        }
    }
}

// MARK: What may share

extension ObjectIdentifier {
    /// The identity of `value` when it is a class instance; nil for a value, whose identity
    /// cannot be compared. Work keyed by what it was handed shares only when this is non-nil.
    init?(instance value: Any) {
        guard type(of: value) is AnyClass else { return nil }
        self.init(value as AnyObject)
    }
}

/// A key part for work that must not be shared: each one is equal only to itself.
struct UnsharedID: Hashable, Sendable {
    private let number: UInt64
    private static let counter = Locked<UInt64>(0)

    /// A new identity, never handed out before.
    static func next() -> UnsharedID {
        UnsharedID(
            number: counter.withLock { count in
                count += 1
                return count
            })
    }
}
