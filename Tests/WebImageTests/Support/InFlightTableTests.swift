import Foundation
import Testing

@testable import WebImage

/// The one coalescing primitive, rule by rule (the rules are listed on `InFlightTable`).
@Suite("InFlightTable: shared work per key")
struct InFlightTableTests {
    typealias Table = InFlightTable<String, Int, String, WebImageError>

    /// Collects one subscriber's events and result.
    final class Recorder: Sendable {
        private let state = Locked<(events: [String], result: Result<Int, WebImageError>?)>(([], nil))
        var events: [String] { state.withLock { $0.events } }
        var result: Result<Int, WebImageError>? { state.withLock { $0.result } }
        var onEvent: Table.EventHandler { { [self] event in state.withLock { $0.events.append(event) } } }
        var onResult: Table.Completion { { [self] result in state.withLock { $0.result = result } } }
    }

    /// A work that counts its runs, waits at `gate`, then returns `value`.
    final class GatedWork: Sendable {
        let gate = Gate()
        private let state = Locked<(runs: Int, cancelled: Int, priorities: [TaskPriority])>((0, 0, []))
        var runs: Int { state.withLock { $0.runs } }
        var cancellations: Int { state.withLock { $0.cancelled } }
        var priorities: [TaskPriority] { state.withLock { $0.priorities } }

        func body(value: Int) -> Table.Body {
            { [self] _ throws(WebImageError) in
                state.withLock { $0.runs += 1 }
                await withTaskCancellationHandler {
                    await gate.wait()
                } onCancel: {
                    self.state.withLock { $0.cancelled += 1 }
                }
                state.withLock { $0.priorities.append(Task.currentPriority) }
                return value
            }
        }
    }

    @Test func theFirstSubscriberStartsTheWorkAndLaterOnesJoinIt() async throws {
        let table = Table()
        let work = GatedWork()
        let recorders = (0..<5).map { _ in Recorder() }
        let subscriptions = recorders.map { recorder in
            table.subscribe("k", priority: .medium, completion: recorder.onResult) { $0.run(work.body(value: 7)) }
        }
        #expect(subscriptions.map(\.joinedRunningWork) == [false, true, true, true, true])
        #expect(table.count == 1)
        #expect(await eventually { work.gate.waiting == 1 })
        work.gate.open()
        #expect(await eventually { recorders.allSatisfy { $0.result != nil } })
        #expect(recorders.allSatisfy { (try? $0.result?.get()) == 7 })
        #expect(work.runs == 1)
        #expect(table.count == 0)
    }

    @Test func aSubscriberThatLeavesGetsItsErrorAtOnceAndTheOthersStillGetTheResult() async throws {
        let table = Table()
        let work = GatedWork()
        let leaving = Recorder()
        let named = Recorder()
        let staying = Recorder()
        let first = table.subscribe("k", priority: .medium, completion: leaving.onResult) {
            $0.run(work.body(value: 3))
        }
        let second = table.subscribe("k", priority: .medium, completion: named.onResult) { _ in }
        _ = table.subscribe("k", priority: .medium, completion: staying.onResult) { _ in }
        first.cancel()
        second.cancel(with: .imageTooLarge(width: 9, height: 9, limit: 1))
        first.cancel()
        #expect(leaving.result?.error == .cancelled)
        #expect(named.result?.error == .imageTooLarge(width: 9, height: 9, limit: 1))
        #expect(staying.result == nil)
        work.gate.open()
        #expect(await eventually { staying.result != nil })
        #expect((try? staying.result?.get()) == 3)
        #expect(leaving.result?.error == .cancelled, "a subscriber that left never hears of the result")
        #expect(work.cancellations == 0)
    }

    @Test func theLastSubscriberLeavingCancelsTheWorkAndFreesTheKeyAtOnce() async throws {
        let table = Table()
        let abandoned = GatedWork()
        let first = table.subscribe("k", priority: .medium) { $0.run(abandoned.body(value: 1)) }
        #expect(await eventually { abandoned.gate.waiting == 1 })
        first.cancel()
        #expect(await eventually { abandoned.cancellations == 1 })
        #expect(table.count == 0)
        let fresh = GatedWork()
        let second = table.subscribe("k", priority: .medium) { $0.run(fresh.body(value: 2)) }
        #expect(!second.joinedRunningWork)
        fresh.gate.open()
        #expect(try await second.value() == 2)
        #expect(fresh.runs == 1)
        abandoned.gate.open()  // its cancelled body may end now; nothing is left suspended
    }

    @Test func finishedWorkIsNeverJoinedEvenFromItsOwnCompletion() async throws {
        let table = Table()
        let runs = Locked(0)
        let again = Locked<Table.Subscription?>(nil)
        let body: Table.Body = { _ throws(WebImageError) in
            runs.withLock {
                $0 += 1
                return $0
            }
        }
        let resubscribe: @Sendable (Result<Int, WebImageError>) -> Void = { _ in
            again.withLock { $0 = table.subscribe("k", priority: .medium) { $0.run(body) } }
        }
        let first = table.subscribe("k", priority: .medium, completion: resubscribe) { $0.run(body) }
        #expect(try await first.value() == 1)
        #expect(await eventually { again.withLock { $0 } != nil })
        let second = try #require(again.withLock { $0 })
        #expect(!second.joinedRunningWork)
        #expect(try await second.value() == 2)
    }

    @Test func aHigherSubscriberEscalatesTheWorkAndTellsItsRaiseHandlers() async throws {
        let table = Table()
        let work = GatedWork()
        let raises = Locked<[TaskPriority]>([])
        let low = table.subscribe("k", priority: .low) { started in
            started.onPriorityRaised { priority in raises.withLock { $0.append(priority) } }
            started.run(work.body(value: 5))
        }
        #expect(await eventually { work.gate.waiting == 1 })
        let medium = table.subscribe("k", priority: .medium) { _ in }
        medium.raisePriority(to: .high)
        low.raisePriority(to: .medium)
        #expect(raises.withLock { $0 } == [.low, .medium, .high])
        work.gate.open()
        #expect(try await low.value() == 5)
        #expect(work.priorities == [.high])
    }

    @Test func workThatEndedKeepsNoHandlersSoNothingItCapturesLeaks() async throws {
        final class Captured: Sendable {}
        let table = Table()
        let subscription = table.subscribe("k", priority: .medium) { $0.run { _ throws(WebImageError) in 1 } }
        #expect(try await subscription.value() == 1)
        weak var captured: Captured?
        do {
            let object = Captured()
            captured = object
            subscription.work.onPriorityRaised { _ in withExtendedLifetime(object) {} }
            subscription.work.onAbandoned { withExtendedLifetime(object) {} }
        }
        #expect(captured == nil)
        #expect(table.count == 0)
    }

    @Test func eventsReachEverySubscriberPresentWhenTheyAreSentInOrder() async throws {
        let table = Table()
        let early = Recorder()
        let late = Recorder()
        let joined = Gate()
        let first = table.subscribe("k", priority: .medium, events: early.onEvent) { work in
            work.run { work throws(WebImageError) in
                work.send("one")
                await joined.wait()
                work.send("two")
                work.send("three")
                return 0
            }
        }
        #expect(await eventually { early.events == ["one"] })
        _ = table.subscribe("k", priority: .medium, events: late.onEvent) { _ in }
        joined.open()
        _ = try await first.value()
        #expect(early.events == ["one", "two", "three"])
        #expect(late.events == ["two", "three"])
    }

    @Test func aLaterSubscriberGetsTheLatestStatusWhenItJoinsThenTheEventsThatFollow() async throws {
        let table = Table()
        let early = Recorder()
        let late = Recorder()
        let noStatusYet = Recorder()
        let joined = Gate()
        let statusSet = Gate()
        let first = table.subscribe("k", priority: .medium, events: early.onEvent) { work in
            work.run { work throws(WebImageError) in
                await statusSet.wait()
                work.setStatus("stage 1")
                work.send("progress")
                work.setStatus("stage 2")
                await joined.wait()
                work.send("after")
                return 0
            }
        }
        // Joined before any status: nothing to replay.
        _ = table.subscribe("k", priority: .medium, events: noStatusYet.onEvent) { _ in }
        #expect(noStatusYet.events.isEmpty)
        statusSet.open()
        #expect(await eventually { early.events.count == 3 })
        _ = table.subscribe("k", priority: .medium, events: late.onEvent) { _ in }
        // The latest status only, delivered before `subscribe` returned.
        #expect(late.events == ["stage 2"])
        joined.open()
        _ = try await first.value()
        #expect(early.events == ["stage 1", "progress", "stage 2", "after"])
        #expect(noStatusYet.events == ["stage 1", "progress", "stage 2", "after"])
        #expect(late.events == ["stage 2", "after"])
    }

    @Test func cancellingTheAwaitingTaskLeavesTheWorkWithCancelled() async throws {
        let table = Table()
        let work = GatedWork()
        let waiter = Task { () throws(WebImageError) -> Int in
            try await table.value(for: "k", body: work.body(value: 1))
        }
        #expect(await eventually { work.gate.waiting == 1 })
        waiter.cancel()
        await #expect(throws: WebImageError.cancelled) { try await waiter.value }
        #expect(await eventually { work.cancellations == 1 })
        #expect(table.count == 0)
        work.gate.open()  // its cancelled body may end now; nothing is left suspended
    }

    @Test func cancelAllEndsEverySubscriberOfEveryWork() async throws {
        let table = Table()
        let works = [GatedWork(), GatedWork()]
        let recorders = (0..<4).map { _ in Recorder() }
        for (index, recorder) in recorders.enumerated() {
            _ = table.subscribe("k\(index % 2)", priority: .medium, completion: recorder.onResult) {
                $0.run(works[index % 2].body(value: index))
            }
        }
        table.cancelAll()
        #expect(recorders.allSatisfy { $0.result?.error == .cancelled })
        #expect(table.count == 0)
        for work in works { work.gate.open() }  // their cancelled bodies may end now
    }
}
