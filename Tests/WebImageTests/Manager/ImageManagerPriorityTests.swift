import Foundation
import Testing

@testable import WebImage

/// A load's work runs at the priority of the task that asked for it, as a child task's would,
/// unless `highPriority` or `lowPriority` says otherwise.
@Suite struct ImageManagerPriorityTests {
    typealias F = ManagerFixtures

    /// Starts `load` in a task at `priority` and waits through a continuation, which (unlike
    /// awaiting the task's value) does not raise the task to the waiter's priority.
    private static func run(
        at priority: TaskPriority, _ load: @escaping @Sendable () async throws -> Int
    ) async -> Int? {
        await withCheckedContinuation { continuation in
            Task(priority: priority) { continuation.resume(returning: try? await load()) }
        }
    }

    @Test(arguments: [TaskPriority.low, .medium, .high])
    func theLoaderIsCalledAtTheCallingTasksPriority(_ priority: TaskPriority) async throws {
        let (manager, loader, _, _) = try F.make()
        let width = await Self.run(at: priority) { try await manager.loadImage(with: F.jpegURL).image.width }
        #expect(width == 800)
        #expect(loader.requestPriorities == [priority])
    }

    @Test func highAndLowPriorityOptionsOverrideTheCallersPriority() async throws {
        let (manager, loader, _, _) = try F.make()
        let high = await Self.run(at: .low) {
            try await manager.loadImage(with: F.jpegURL, options: .highPriority).image.width
        }
        let low = await Self.run(at: .high) {
            try await manager.loadImage(with: F.pngURL, options: .lowPriority).image.width
        }
        #expect(high == 800)
        #expect(low != nil)
        #expect(loader.requestPriorities == [.high, .low])
    }
}
