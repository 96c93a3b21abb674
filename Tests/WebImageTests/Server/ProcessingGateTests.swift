import Foundation
import Synchronization
import Testing

@testable import WebImageServer

/// The processing limit: slots, a bounded line, 429 and 503.
@Suite("Image service: the processing gate")
struct ProcessingGateTests {
    @Test func aFullLineIsRefusedAndWaitersStartInOrderAsSlotsFree() async throws {
        let gate = ProcessingGate(slots: 1, queueLimit: 2, timeout: .seconds(60))
        try await gate.acquire()
        let order = Recorder()
        let first = Task {
            try await gate.acquire()
            order.append(1)
        }
        #expect(await eventually { gate.counts.waiting == 1 })
        let second = Task {
            try await gate.acquire()
            order.append(2)
        }
        #expect(await eventually { gate.counts.waiting == 2 })
        await #expect(throws: ServiceError(status: 429, message: "too many requests are waiting; try again later")) {
            try await gate.acquire()
        }
        gate.release()
        try await first.value
        #expect(gate.counts == (1, 1))
        gate.release()
        try await second.value
        gate.release()
        #expect(order.values == [1, 2])
        #expect(gate.counts == (0, 0))
    }

    @Test func aWaiterThatWaitsTooLongGets503AndLeavesTheLine() async throws {
        let gate = ProcessingGate(slots: 1, queueLimit: 4, timeout: .milliseconds(50))
        try await gate.acquire()
        do {
            try await gate.acquire()
            Issue.record("the second acquire should time out")
        } catch {
            #expect(error.status == 503)
        }
        #expect(gate.counts == (1, 0))
        gate.release()
        #expect(gate.counts == (0, 0))
    }

    @Test func aCancelledWaiterLeavesTheLineWithoutTakingASlot() async throws {
        let gate = ProcessingGate(slots: 1, queueLimit: 4, timeout: .seconds(60))
        try await gate.acquire()
        let waiter = Task { try await gate.acquire() }
        #expect(await eventually { gate.counts.waiting == 1 })
        waiter.cancel()
        let result = await waiter.result
        #expect((try? result.get()) == nil)
        #expect(gate.counts == (1, 0))
        gate.release()
        #expect(gate.counts == (0, 0))
    }

    @Test func theServiceAnswers429WhenTheLineIsFull() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        configuration.workers = 1
        configuration.queueLimit = 0
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                try await service.gate.acquire()  // the only worker is busy
                let source = Data(origin.url("/fixtures/png/rgba8.png").absoluteString.utf8)
                    .base64URLEncodedWithoutPadding()
                let busy = await service.respond(to: ServiceRequest(path: "/_/w:4/" + source))
                #expect(busy.status == 429)
                #expect(busy.header("Cache-Control") == "no-cache")
                service.gate.release()
                let free = await service.respond(to: ServiceRequest(path: "/_/w:4/" + source))
                #expect(free.status == 200)
            }
        }
    }
}

/// Values appended from several tasks, in the order they arrive.
final class Recorder: Sendable {
    private let storage = Mutex<[Int]>([])
    func append(_ value: Int) { storage.withLock { $0.append(value) } }
    var values: [Int] { storage.withLock { $0 } }
}
