import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import WebImageServer

#if canImport(Glibc)
    import Glibc
#endif

/// `webimage serve`'s periodic `malloc_trim` (imgproxy's `IMGPROXY_FREE_MEMORY_INTERVAL`).
@Suite("Memory trimmer: free allocator memory goes back to the kernel on a timer", .serialized)
struct MemoryTrimmerTests {
    @Test("the default interval is imgproxy's 10 seconds")
    func defaultIntervalIsTenSeconds() throws {
        #expect(try ServeOptions(ServeSettings(flags: [:], environment: [:])).freeMemoryInterval == .seconds(10))
    }

    @Test("it trims once per interval while the group runs, and not after graceful shutdown")
    func trimsOnATimerUntilShutdown() async throws {
        let trims = Atomic<Int>(0)
        let trimmer = MemoryTrimmer(interval: .milliseconds(20)) { trims.add(1, ordering: .relaxed) }
        let group = ServiceGroup(
            configuration: .init(services: [trimmer], logger: Logger(label: "memory-trimmer-test")))
        let running = Task { try await group.run() }
        #expect(await eventually { trims.load(ordering: .relaxed) >= 3 })
        await group.triggerGracefulShutdown()
        try await running.value
        let afterShutdown = trims.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(150))
        #expect(trims.load(ordering: .relaxed) == afterShutdown)
    }

    #if canImport(Glibc)
        @Test("a trim hands back freed heap pages that a free alone leaves resident")
        func releaseFreeMemoryShrinksTheResidentSet() async throws {
            // 4,096 blocks of 64 KiB (256 MiB), below glibc's mmap threshold, so they come from
            // a heap; every 32nd stays allocated, so the freed ones sit between live blocks,
            // where free() cannot give them back.
            let blockSize = 64 << 10
            let blocks = (0..<4096).map { _ -> UnsafeMutableRawPointer? in
                guard let block = malloc(blockSize) else { return nil }
                memset(block, 0x5a, blockSize)
                return block
            }
            try #require(blocks.allSatisfy { $0 != nil })
            defer { for (index, block) in blocks.enumerated() where index % 32 == 0 { free(block) } }
            for (index, block) in blocks.enumerated() where index % 32 != 0 { free(block) }
            let beforeTrim = residentBytes()
            MemoryTrimmer.releaseFreeMemory()
            let released = beforeTrim - residentBytes()
            #expect(released > 150 << 20, "the trim released \(released >> 20) MiB of about 248 MiB freed")
        }
    #endif
}
