/// Work shared by everyone who asks for the same key while it runs: the library's one
/// coalescing primitive. The manager shares whole loads through it, the cache its disk reads,
/// and the downloader its transfers and its decodes.
///
/// The rules (each checked once in `InFlightTableTests`):
/// 1. The first subscriber of a key starts the work; later subscribers of the key join it.
/// 2. Every subscriber gets the work's result, or an error as soon as it leaves
///    (``WebImageError/cancelled`` unless it names another); leaving never disturbs the others.
/// 3. When the last subscriber leaves, the work is abandoned: its task is cancelled and the key
///    is free at once, so the next subscriber starts new work rather than joining work that is
///    stopping.
/// 4. Finished work is never joined: its key is free before its result is handed out.
/// 5. The work runs at the highest priority of its subscribers: a subscriber that joins or is
///    raised above it escalates the work's task and calls its ``Work/onPriorityRaised(_:)`` handlers.
/// 6. Events the work sends reach every subscriber present when they are sent, in order.
///
/// State changes happen under one lock per table and one per work; results, events and
/// handlers run after the lock is released, never under it.
package final class InFlightTable<Key: Hashable & Sendable, Value: Sendable, Event: Sendable>: Sendable {
    /// What a work does in its task: it gets its handle, to send events and see whether anyone still waits.
    package typealias Body = @Sendable (Work) async throws(WebImageError) -> Value
    package typealias Completion = @Sendable (Result<Value, WebImageError>) -> Void
    package typealias EventHandler = @Sendable (Event) -> Void

    private let works = Locked([Key: Work]())

    package init() {}

    /// Works running now.
    package var count: Int { works.withLock { $0.count } }

    /// Subscribers of the works whose keys match `predicate` (for tests and diagnostics).
    package func subscriberCount(where predicate: (Key) -> Bool) -> Int {
        let matching = works.withLock { works in works.filter { predicate($0.key) }.map(\.value) }
        return matching.reduce(0) { $0 + $1.subscriberCount }
    }

    /// Subscribes to the work for `key`. If none runs, this subscription creates it and calls
    /// `start` with it before returning, on this thread: `start` sets the work up (a place in a
    /// queue, a subscription to other work) and calls ``Work/run(_:)``. `completion`, if given,
    /// gets the result exactly once, on whichever thread produced it; otherwise await
    /// ``Subscription/value()``.
    package func subscribe(
        _ key: Key, priority: TaskPriority, events: EventHandler? = nil, completion: Completion? = nil,
        start: (Work) -> Void
    ) -> Subscription {
        let subscription = Subscription(priority: priority, events: events, completion: completion)
        let (work, escalation) = works.withLock { works -> (Work, Work.Escalation?) in
            // A closed work (finishing, or abandoned) refuses the newcomer: a new one replaces it.
            if let existing = works[key], let escalation = existing.add(subscription) { return (existing, escalation) }
            let created = Work(first: subscription) { [weak self] work in self?.remove(work, forKey: key) }
            works[key] = created
            return (created, nil)
        }
        if let escalation {
            work.raised(escalation)
        } else {
            start(work)
        }
        return subscription
    }

    /// The result of the work for `key`, started with `body` if none runs. Cancelling the
    /// calling task leaves the work at once with ``WebImageError/cancelled``; escalating the
    /// calling task raises this subscriber.
    package func value(
        for key: Key, priority: TaskPriority? = nil, events: EventHandler? = nil, body: @escaping Body
    ) async throws(WebImageError) -> Value {
        if Task.isCancelled { throw .cancelled }
        return try await subscribe(key, priority: priority ?? Task.currentPriority, events: events) { $0.run(body) }
            .value()
    }

    /// Ends every subscriber of every work with ``WebImageError/cancelled``, abandoning the works.
    package func cancelAll() {
        let all = works.withLock { Array($0.values) }
        for work in all { work.cancelAll() }
    }

    private func remove(_ work: Work, forKey key: Key) {
        works.withLock { works in
            if works[key] === work { works[key] = nil }
        }
    }
}

extension InFlightTable {
    /// One subscriber's hold on a work: its result, its cancel and its priority.
    package final class Subscription: Sendable {
        private struct Delivery {
            var result: Result<Value, WebImageError>?
            var completion: Completion?
            var waiter: CheckedContinuation<Result<Value, WebImageError>, Never>?
        }

        let events: EventHandler?
        /// The priority it asked for; the work's is the highest of its subscribers'.
        let priority: TaskPriority
        private let delivery: Locked<Delivery>
        /// The work subscribed to: set once, under the table's lock, before the subscription is
        /// handed to anyone; read-only from then on.
        nonisolated(unsafe) private(set) var work: Work?
        /// Whether it joined work that was running already (rather than starting it); set with ``work``.
        nonisolated(unsafe) package private(set) var joinedRunningWork = false

        fileprivate init(priority: TaskPriority, events: EventHandler?, completion: Completion?) {
            self.priority = priority
            self.events = events
            delivery = Locked(Delivery(completion: completion))
        }

        fileprivate func join(_ work: Work, running: Bool) {
            self.work = work
            joinedRunningWork = running
        }

        /// The work's result, or the error this subscription left with. Cancelling the calling
        /// task cancels the subscription; escalating it raises the subscription's priority.
        package func value() async throws(WebImageError) -> Value {
            let result = await withTaskCancellationHandler {
                await withTaskPriorityEscalationHandler {
                    await withCheckedContinuation { continuation in
                        let ready = delivery.withLock { delivery in
                            if delivery.result == nil { delivery.waiter = continuation }
                            return delivery.result
                        }
                        if let ready { continuation.resume(returning: ready) }
                    }
                } onPriorityEscalated: { [self] _, raised in
                    raisePriority(to: raised)
                }
            } onCancel: { [self] in
                cancel()
            }
            return try result.get()
        }

        /// Leaves the work: the subscriber gets `error` now (unless the result came first), and
        /// the work is abandoned if this was its last subscriber. Idempotent.
        package func cancel(with error: WebImageError = .cancelled) {
            work?.remove(self, error: error)
        }

        /// Raises this subscriber's priority, and the work's if it is now the highest.
        package func raisePriority(to priority: TaskPriority) {
            work?.raise(self, to: priority)
        }

        fileprivate func deliver(_ result: Result<Value, WebImageError>) {
            let (completion, waiter) = delivery.withLock { delivery in
                guard delivery.result == nil else { return (nil as Completion?, nil as CheckedContinuation<Result<Value, WebImageError>, Never>?) }
                delivery.result = result
                defer {
                    delivery.completion = nil
                    delivery.waiter = nil
                }
                return (delivery.completion, delivery.waiter)
            }
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

        /// What a raise must do outside the lock: escalate the task, tell the handlers.
        fileprivate struct Escalation {
            var priority: TaskPriority?
            var task: Task<Void, Never>?
            var handlers: [@Sendable (TaskPriority) -> Void] = []
        }

        private struct State {
            var entries: [Entry]
            /// The event handlers of `entries`, kept apart so that sending copies no closures.
            var listeners: [EventHandler]
            var priority: TaskPriority
            var task: Task<Void, Never>?
            /// Finished, or every subscriber left: nobody may join any more.
            var isClosed = false
            /// Every subscriber left before the result.
            var isAbandoned = false
            var raiseHandlers: [@Sendable (TaskPriority) -> Void] = []
        }

        private let state: Locked<State>
        private let detach: @Sendable (Work) -> Void

        /// A work with its first subscriber (made under the table's lock).
        fileprivate init(first: Subscription, detach: @escaping @Sendable (Work) -> Void) {
            state = Locked(
                State(
                    entries: [Entry(subscription: first, priority: first.priority)],
                    listeners: first.events.map { [$0] } ?? [], priority: first.priority))
            self.detach = detach
            first.join(self, running: false)
        }

        /// Subscribers present now.
        var subscriberCount: Int { state.withLock { $0.entries.count } }

        /// The highest priority of the subscribers.
        package var priority: TaskPriority { state.withLock { $0.priority } }

        /// Whether every subscriber has left.
        package var isAbandoned: Bool { state.withLock { $0.isAbandoned } }

        /// Runs `body` in a new task at the work's priority and hands its result to the
        /// subscribers. If they all left already, the task starts cancelled, so that what the
        /// work set up before (a place in a queue, a subscription) is undone by its body.
        package func run(_ body: @escaping Body) {
            state.withLock { state in
                let task = Task(priority: state.priority) { [self] in
                    let result: Result<Value, WebImageError>
                    do throws(WebImageError) {
                        result = .success(try await body(self))
                    } catch {
                        result = .failure(error)
                    }
                    finish(result)
                }
                if state.isAbandoned { task.cancel() } else { state.task = task }
            }
        }

        /// Hands `event` to every subscriber present now.
        package func send(_ event: Event) {
            let listeners = state.withLock { $0.listeners }
            for listener in listeners { listener(event) }
        }

        /// Calls `handler` with the work's priority now and whenever it rises.
        package func onPriorityRaised(_ handler: @escaping @Sendable (TaskPriority) -> Void) {
            let current = state.withLock { state in
                state.raiseHandlers.append(handler)
                return state.priority
            }
            handler(current)
        }

        /// Cancels the work's task without ending any subscriber: the work then ends them all
        /// with whatever error it makes of being interrupted (a downloader's idle timeout).
        package func interrupt() {
            state.withLock { $0.task }?.cancel()
        }

        /// Adds a subscriber (called under the table's lock); nil if the work is closed.
        fileprivate func add(_ subscription: Subscription) -> Escalation? {
            state.withLock { state -> Escalation? in
                guard !state.isClosed else { return nil }
                state.entries.append(Entry(subscription: subscription, priority: subscription.priority))
                if let events = subscription.events { state.listeners.append(events) }
                subscription.join(self, running: true)
                guard subscription.priority > state.priority else { return Escalation() }
                state.priority = subscription.priority
                return Escalation(priority: subscription.priority, task: state.task, handlers: state.raiseHandlers)
            }
        }

        fileprivate func remove(_ subscription: Subscription, error: WebImageError) {
            let (found, abandoned) = state.withLock { state -> (Bool, Task<Void, Never>??) in
                guard let index = state.entries.firstIndex(where: { $0.subscription === subscription }) else {
                    return (false, nil)
                }
                state.entries.remove(at: index)
                if subscription.events != nil { state.listeners = state.entries.compactMap(\.subscription.events) }
                guard state.entries.isEmpty, !state.isClosed else { return (true, nil) }
                state.isClosed = true
                state.isAbandoned = true
                defer {
                    state.task = nil
                    state.raiseHandlers = []
                }
                return (true, .some(state.task))
            }
            guard found else { return }
            if let task = abandoned {
                detach(self)
                subscription.deliver(.failure(error))
                task?.cancel()
            } else {
                subscription.deliver(.failure(error))
            }
        }

        fileprivate func raise(_ subscription: Subscription, to priority: TaskPriority) {
            let escalation = state.withLock { state -> Escalation? in
                guard let index = state.entries.firstIndex(where: { $0.subscription === subscription }),
                    priority > state.entries[index].priority
                else { return nil }
                state.entries[index].priority = priority
                guard priority > state.priority else { return nil }
                state.priority = priority
                return Escalation(priority: priority, task: state.task, handlers: state.raiseHandlers)
            }
            if let escalation { raised(escalation) }
        }

        fileprivate func raised(_ escalation: Escalation) {
            guard let priority = escalation.priority else { return }
            escalation.task?.escalatePriority(to: priority)
            for handler in escalation.handlers { handler(priority) }
        }

        fileprivate func cancelAll() {
            let subscriptions = state.withLock { state in state.entries.map(\.subscription) }
            for subscription in subscriptions { subscription.cancel() }
        }

        private func finish(_ result: Result<Value, WebImageError>) {
            let subscriptions = state.withLock { state -> [Subscription] in
                state.isClosed = true
                state.task = nil
                state.listeners = []
                state.raiseHandlers = []
                defer { state.entries = [] }
                return state.entries.map(\.subscription)
            }
            // Free the key first: a subscriber that reacts to the result by asking again
            // must start new work, not find this finished one.
            detach(self)
            for subscription in subscriptions { subscription.deliver(result) }
        }
    }
}
