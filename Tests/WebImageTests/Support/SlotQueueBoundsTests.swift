import Foundation
import Testing

@testable import WebImage

/// The queue's bounds and lanes, through ``SlotQueue/perform(lane:priority:_:)``: a line of
/// limited length and wait, and lanes that cannot take every slot.
@Suite("SlotQueue: a bounded line, deadlines and lanes")
struct SlotQueueBoundsTests {
    /// Occupies one slot of `queue` in `lane` until `gate` opens; returns once it runs.
    private func occupy(_ queue: SlotQueue, lane: Int = 0, until gate: Gate) async -> Task<Void, any Error> {
        let started = Gate()
        let task = Task {
            try await queue.perform(lane: lane) {
                started.open()
                await gate.wait()
            }
        }
        await started.wait()
        return task
    }

    @Test func aFullLineIsRefusedAtOnceAndWaitersStartInOrderAsSlotsFree() async throws {
        let queue = SlotQueue(slots: 1, waitingLimit: 2)
        let release = Gate()
        let running = await occupy(queue, until: release)
        let order = Recorder()
        let first = Task { try await queue.perform { order.append(1) } }
        #expect(await eventually { queue.counts.waiting == 1 })
        let second = Task { try await queue.perform { order.append(2) } }
        #expect(await eventually { queue.counts.waiting == 2 })
        await #expect(throws: SlotQueue.Refusal.full) { try await queue.perform { order.append(3) } }
        #expect(queue.counts == (waiting: 2, running: 1))
        release.open()
        try await running.value
        try await first.value
        try await second.value
        #expect(order.values == [1, 2])
        #expect(await eventually { queue.counts == (waiting: 0, running: 0) })
    }

    @Test func aJobThatWaitsPastTheLimitExpiresAndLeavesTheLine() async throws {
        let queue = SlotQueue(slots: 1, waitLimit: .milliseconds(50))
        let release = Gate()
        let running = await occupy(queue, until: release)
        let ran = Recorder()
        let start = ContinuousClock.now
        await #expect(throws: SlotQueue.Refusal.expired) { try await queue.perform { ran.append(1) } }
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        #expect(queue.counts == (waiting: 0, running: 1))
        release.open()
        try await running.value
        #expect(ran.values.isEmpty)
        #expect(await eventually { queue.counts == (waiting: 0, running: 0) })
    }

    @Test func manyWaitersExpireTogetherAndOnlyTheWaitingOnes() async throws {
        let queue = SlotQueue(slots: 1, waitLimit: .milliseconds(100))
        let release = Gate()
        let running = await occupy(queue, until: release)
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    do throws(SlotQueue.Refusal) {
                        try await queue.perform {}
                        return true
                    } catch {
                        #expect(error == .expired)
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { !$0 })
        release.open()
        try await running.value
        // A job that finds a free slot never expires, however long it then runs.
        try await queue.perform { try? await Task.sleep(for: .milliseconds(200)) }
    }

    @Test func aCancelledWaiterLeavesTheLineWithoutTakingASlot() async throws {
        let queue = SlotQueue(slots: 1)
        let release = Gate()
        let running = await occupy(queue, until: release)
        let ran = Recorder()
        let waiter = Task { try await queue.perform { ran.append(1) } }
        #expect(await eventually { queue.counts.waiting == 1 })
        waiter.cancel()
        await #expect(throws: SlotQueue.Refusal.cancelled) { try await waiter.value }
        #expect(queue.counts == (waiting: 0, running: 1))
        release.open()
        try await running.value
        #expect(ran.values.isEmpty)
    }

    @Test func aLaneAtItsLimitLetsTheNextLanesJobsPass() async throws {
        // Two slots; lane 1 (large sources, say) may hold one of them.
        let queue = SlotQueue(slots: 2, laneLimits: [2, 1])
        let release = Gate()
        let large = await occupy(queue, lane: 1, until: release)
        let order = Recorder()
        let secondLarge = Task { try await queue.perform(lane: 1) { order.append(2) } }
        #expect(await eventually { queue.counts == (waiting: 1, running: 1) })
        // A slot is free, but only lane 0 may take it: the small job starts ahead of the large one.
        try await queue.perform(lane: 0) { order.append(1) }
        #expect(queue.runningByLane == [0, 1])
        release.open()
        try await large.value
        try await secondLarge.value
        #expect(order.values == [1, 2])
    }

    @Test func smallJobsKeepASlotWhileLargeOnesWait() async throws {
        let queue = SlotQueue(slots: 2, laneLimits: [2, 1])
        let release = Gate()
        let large = await occupy(queue, lane: 1, until: release)
        let waitingLarge = (0..<3).map { _ in Task { try await queue.perform(lane: 1) {} } }
        #expect(await eventually { queue.counts.waiting == 3 })
        // Ten small jobs one after another, each with the free slot.
        for index in 0..<10 {
            try await queue.perform(lane: 0) {
                #expect(queue.runningByLane == [1, 1], "small job \(index)")
            }
        }
        release.open()
        try await large.value
        for task in waitingLarge { try await task.value }
    }
}
