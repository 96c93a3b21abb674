import Foundation
import Testing

@testable import WebImage

/// The one queue: slots, the line of jobs waiting for one, and the workers that run them.
@Suite("SlotQueue: slots, the line waiting for them, and their workers")
struct SlotQueueTests {
    /// Records the order in which jobs start, and holds each one at a gate until released.
    final class Jobs: Sendable {
        private let state = Locked<(started: [String], gates: [String: Gate])>(([], [:]))
        var started: [String] { state.withLock { $0.started } }

        /// A job that records its start, then waits until ``finish(_:)`` lets it end.
        func job(_ name: String) -> SlotQueue.Work {
            let gate = Gate()
            state.withLock { $0.gates[name] = gate }
            return { [self] _ in
                state.withLock { $0.started.append(name) }
                await gate.wait()
            }
        }

        func finish(_ name: String) { state.withLock { $0.gates[name] }?.open() }
    }

    private func enqueue(
        _ queue: SlotQueue, _ jobs: Jobs, _ name: String, _ priority: SlotQueue.Priority = .normal
    ) -> SlotQueue.Ticket {
        queue.enqueue(priority: priority, runPriority: .medium, work: jobs.job(name))
    }

    /// Lets the jobs in `names` end one after another, each once the next one has started.
    private func drain(_ queue: SlotQueue, _ jobs: Jobs, _ names: [String]) async {
        for (index, name) in names.enumerated() {
            #expect(await eventually { jobs.started.count >= index + 1 })
            jobs.finish(name)
        }
        #expect(await eventually { queue.counts == (waiting: 0, running: 0) })
    }

    @Test func highestPriorityFirstFIFOWithinOneAndARaiseAndALeaveTakeEffect() async {
        let queue = SlotQueue(slots: 1)
        let jobs = Jobs()
        let running = enqueue(queue, jobs, "running")
        let tickets = (0..<5).map { enqueue(queue, jobs, "\($0)", $0 == 4 ? .low : .normal) }
        queue.raise(tickets[2], to: .high)
        queue.raise(tickets[3], to: .low)
        #expect(queue.leave(tickets[1]))
        #expect(!queue.leave(running), "a started job cannot leave: it owns its slot")
        #expect(queue.counts == (waiting: 4, running: 1))
        await drain(queue, jobs, ["running", "2", "0", "3", "4"])
        #expect(jobs.started == ["running", "2", "0", "3", "4"])
    }

    @Test func lifoServesTheNewestJobFirst() async {
        let queue = SlotQueue(slots: 1, order: .lifo)
        let jobs = Jobs()
        for name in ["a", "b", "c", "d"] { _ = enqueue(queue, jobs, name) }
        await drain(queue, jobs, ["a", "d", "c", "b"])
        #expect(jobs.started == ["a", "d", "c", "b"])
    }

    @Test func moreSlotsStartWaitingJobsAtOnceAndSuspensionHoldsThem() async {
        let queue = SlotQueue(slots: 1)
        let jobs = Jobs()
        queue.isSuspended = true
        for name in ["a", "b", "c"] { _ = enqueue(queue, jobs, name) }
        #expect(jobs.started.isEmpty)
        queue.isSuspended = false
        #expect(await eventually { jobs.started == ["a"] })
        queue.slots = 3
        #expect(await eventually { jobs.started.count == 3 })
        queue.slots = 0
        #expect(queue.slots == 1)
        await drain(queue, jobs, ["a", "b", "c"])
    }

    @Test func ticketsThatLeftTheLineAreNotKeptAliveByIt() async {
        let queue = SlotQueue(slots: 1)
        let jobs = Jobs()
        weak var left: SlotQueue.Ticket?
        weak var raised: SlotQueue.Ticket?
        _ = enqueue(queue, jobs, "running")
        do {
            let leaving = enqueue(queue, jobs, "left")
            let raising = enqueue(queue, jobs, "raised")
            left = leaving
            raised = raising
            queue.leave(leaving)
            queue.raise(raising, to: .high)
        }
        await drain(queue, jobs, ["running", "raised"])
        // The entries left behind name these tickets; they must not own them.
        #expect(left == nil)
        #expect(raised == nil)
    }

    @Test func oneWorkerRunsJobsOfItsPriorityBackToBackAndAnInterruptedOneEnds() async {
        let queue = SlotQueue(slots: 1)
        let numbers = Locked<[UInt64]>([])
        let interrupted = Locked<[Bool]>([])
        let gate = Gate()
        for index in 0..<4 {
            _ = queue.enqueue(priority: .normal, runPriority: .medium) { job in
                numbers.withLock { $0.append(job.number) }
                // The first job holds the slot until every job is in line.
                if index == 0 { await gate.wait() }
                if index == 1 { job.interrupt() }
                interrupted.withLock { $0.append(Task.isCancelled) }
            }
        }
        #expect(queue.counts == (waiting: 3, running: 1))
        gate.open()
        #expect(await eventually { queue.counts == (waiting: 0, running: 0) })
        // 1, 2: the second job runs in the first one's worker; then the interrupted worker ends
        // and a new one runs the last two.
        #expect(numbers.withLock { $0 } == [1, 2, 1, 2])
        #expect(interrupted.withLock { $0 } == [false, true, false, false])
    }
}
