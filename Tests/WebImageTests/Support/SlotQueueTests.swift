import Foundation
import Testing

@testable import WebImage

/// The one queue: slots, and the line of work waiting for one.
@Suite("SlotQueue: slots and the line waiting for them")
struct SlotQueueTests {
    /// Records the order in which tickets are granted.
    final class Grants: Sendable {
        private let order = Locked<[String]>([])
        var all: [String] { order.withLock { $0 } }
        func record(_ name: String) -> @Sendable () -> Void { { [self] in order.withLock { $0.append(name) } } }
    }

    @Test func highestPriorityFirstFIFOWithinOneAndARaiseAndALeaveTakeEffect() {
        let queue = SlotQueue(slots: 1)
        let grants = Grants()
        let running = queue.enqueue(priority: .normal, onGrant: grants.record("running"))
        let tickets = (0..<5).map { index in
            queue.enqueue(priority: index == 4 ? .low : .normal, onGrant: grants.record("\(index)"))
        }
        queue.raise(tickets[2], to: .high)
        queue.raise(tickets[3], to: .low)
        #expect(queue.leave(tickets[1]))
        #expect(!queue.leave(running), "a granted ticket cannot leave: its holder owns the slot")
        #expect(queue.counts == (waiting: 4, running: 1))
        for _ in 0..<5 { queue.release() }
        #expect(grants.all == ["running", "2", "0", "3", "4"])
        #expect(queue.counts == (waiting: 0, running: 0))
    }

    @Test func lifoServesTheNewestTicketFirst() {
        let queue = SlotQueue(slots: 1, order: .lifo)
        let grants = Grants()
        for name in ["a", "b", "c", "d"] { _ = queue.enqueue(priority: .normal, onGrant: grants.record(name)) }
        for _ in 0..<4 { queue.release() }
        #expect(grants.all == ["a", "d", "c", "b"])
    }

    @Test func moreSlotsGrantWaitingTicketsAtOnceAndSuspensionHoldsThem() {
        let queue = SlotQueue(slots: 1)
        let grants = Grants()
        queue.isSuspended = true
        for name in ["a", "b", "c"] { _ = queue.enqueue(priority: .normal, onGrant: grants.record(name)) }
        #expect(grants.all.isEmpty)
        queue.isSuspended = false
        #expect(grants.all == ["a"])
        queue.slots = 3
        #expect(grants.all == ["a", "b", "c"])
        queue.slots = 0
        #expect(queue.slots == 1)
    }

    @Test func ticketsThatLeftTheLineAreNotKeptAliveByIt() {
        let queue = SlotQueue(slots: 1)
        weak var left: SlotQueue.Ticket?
        weak var raised: SlotQueue.Ticket?
        _ = queue.enqueue(priority: .normal)
        do {
            let leaving = queue.enqueue(priority: .normal)
            let raising = queue.enqueue(priority: .normal)
            left = leaving
            raised = raising
            queue.leave(leaving)
            queue.raise(raising, to: .high)
            queue.release()
        }
        // The entries left behind name these tickets; they must not own them.
        #expect(left == nil)
        #expect(raised == nil)
    }

    @Test func aWaitEndsWhenTheTicketIsGrantedAndACancelledWaitLeavesTheLine() async throws {
        let queue = SlotQueue(slots: 1)
        let holder = queue.enqueue(priority: .normal)
        let cancelled = queue.enqueue(priority: .normal)
        let served = queue.enqueue(priority: .normal)
        try await queue.wait(for: holder)
        let waiting = Task { try await queue.wait(for: cancelled) }
        waiting.cancel()
        await #expect(throws: WebImageError.cancelled) { try await waiting.value }
        #expect(queue.counts == (waiting: 1, running: 1))
        let next = Task { try await queue.wait(for: served) }
        queue.release()
        try await next.value
        #expect(queue.counts == (waiting: 0, running: 1))
    }

    @Test func raisingTheWaitingTaskRaisesItsTicket() async throws {
        let queue = SlotQueue(slots: 1)
        let grants = Grants()
        _ = queue.enqueue(priority: .normal, onGrant: grants.record("running"))
        _ = queue.enqueue(priority: .normal, onGrant: grants.record("normal"))
        let low = queue.enqueue(priority: .low, onGrant: grants.record("escalated"))
        let waiter = Task(priority: .low) { try await queue.wait(for: low) }
        #expect(await eventually { low.isAwaited })
        waiter.escalatePriority(to: .high)
        queue.release()
        try await waiter.value
        #expect(grants.all == ["running", "escalated"])
    }
}
