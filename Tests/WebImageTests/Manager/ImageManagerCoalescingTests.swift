import Foundation
import Testing

@testable import WebImage

/// Concurrent loads of the same result share one cache read, load, decode and transform.
@Suite struct ImageManagerCoalescingTests {
    typealias F = ManagerFixtures

    @Test func hundredConcurrentLoadsOfOneURLMakeOneLoaderRequestAndOneTransform() async throws {
        let (manager, loader, _, _) = try F.make()
        let url = try #require(URL(string: "test://origin/slow.jpg"))
        loader.respond(to: url, with: .delayed(try F.jpeg(), milliseconds: 1000))
        let transforms = Counter()
        manager.transformer = ImageClosureTransformer(key: "Count") { image in
            transforms.increment()
            return image
        }
        let widths = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { try await manager.loadImage(with: url).image.width }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(widths == Array(repeating: 800, count: 100))
        #expect(loader.requestCount(for: url) == 1)
        #expect(transforms.value == 1)
        #expect(!manager.isRunning)
    }

    @Test func cancellingOneOfTwoJoinedLoadsLeavesTheOtherRunning() async throws {
        let (manager, loader, _, _) = try F.make()
        let url = try #require(URL(string: "test://origin/shared.png"))
        loader.respond(to: url, with: .hang)
        let first = CompletionLog()
        let second = CompletionLog()
        let firstOperation = manager.loadImage(with: url, completed: first.completion)
        manager.loadImage(with: url, completed: second.completion)
        #expect(await eventually { loader.requestCount(for: url) != 0 })
        try await Task.sleep(for: .milliseconds(50))
        firstOperation.cancel()
        try await first.waitForFinished()
        #expect(first.all.map(\.error) == [.cancelled])
        try await Task.sleep(for: .milliseconds(50))
        #expect(loader.cancellationCount(for: url) == 0, "the other load still needs the transfer")
        #expect(second.all.isEmpty)
        #expect(manager.isRunning)
        manager.cancelAll()
        try await second.waitForFinished()
        #expect(await eventually { loader.cancellationCount(for: url) == 1 }, "the last one out stops the transfer")
        #expect(loader.requestCount(for: url) == 1)
    }

    @Test func loadsWithDifferentThumbnailSizesAreNotShared() async throws {
        let (manager, loader, _, _) = try F.make()
        let sizes = [40, 80, 120, 160]
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for size in sizes {
                group.addTask {
                    var context = WebImageContext()
                    context.imageThumbnailPixelSize = PixelSize(width: size, height: size)
                    return try await manager.loadImage(with: F.jpegURL, options: .fromLoaderOnly, context: context)
                        .image.width
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == sizes)
        #expect(loader.requestCount(for: F.jpegURL) == sizes.count)
    }
}

final class Counter: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
