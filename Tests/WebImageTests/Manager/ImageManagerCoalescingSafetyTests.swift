import Foundation
import Testing

@testable import WebImage

/// Loads whose contexts carry things the manager cannot compare are never shared: each gets
/// its own load, so one caller's modifier, decryptor or handler never applies to another.
@Suite struct ImageManagerCoalescingSafetyTests {
    typealias F = ManagerFixtures

    enum Uncomparable: String, CaseIterable, CustomTestStringConvertible {
        case requestModifier, responseModifier, decryptor, responseHandler, customKey, structCoder, structSerializer
        var testDescription: String { rawValue }

        var context: WebImageContext {
            var context = WebImageContext()
            switch self {
            case .requestModifier: context.downloadRequestModifier = ImageDownloadRequestModifier { $0 }
            case .responseModifier: context.downloadResponseModifier = ImageDownloadResponseModifier { $0 }
            case .decryptor: context.downloadDecryptor = ImageDownloadBlockDecryptor { data, _, _ in data }
            case .responseHandler: context.downloadResponseHandler = { _ in }
            case .customKey: context.custom["tenant"] = "a"
            case .structCoder: context.imageCoder = JPEGCoder()
            case .structSerializer: context.cacheSerializer = ImageCacheSerializer { _, data, _ in data }
            }
            return context
        }
    }

    /// Two overlapping loads of one URL with the same context; returns the loader's request count.
    private func overlappingLoads(context: WebImageContext) async throws -> Int {
        let (manager, loader, _, _) = try F.make()
        let url = try #require(URL(string: "test://origin/overlap.jpg"))
        loader.respond(to: url, with: .delayed(try F.jpeg(), milliseconds: 500))
        let widths = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask { try await manager.loadImage(with: url, context: context).image.width }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(widths == [800, 800])
        return loader.requestCount(for: url)
    }

    @Test(arguments: Uncomparable.allCases)
    func concurrentLoadsWithAnUncomparableContextEachMakeTheirOwnRequest(_ kind: Uncomparable) async throws {
        #expect(try await overlappingLoads(context: kind.context) == 2)
    }

    @Test func concurrentLoadsSharingOneCoderInstanceAreCoalesced() async throws {
        var context = WebImageContext()
        context.imageCoder = CountingCoder()
        #expect(try await overlappingLoads(context: context) == 1)
    }

    @Test func concurrentLoadsWithDifferentCoderInstancesAreNotCoalesced() async throws {
        let (manager, loader, _, _) = try F.make()
        let url = try #require(URL(string: "test://origin/two-coders.jpg"))
        loader.respond(to: url, with: .delayed(try F.jpeg(), milliseconds: 500))
        let coders = [CountingCoder(), CountingCoder()]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for coder in coders {
                group.addTask {
                    var context = WebImageContext()
                    context.imageCoder = coder
                    _ = try await manager.loadImage(with: url, context: context)
                }
            }
            try await group.waitForAll()
        }
        #expect(loader.requestCount(for: url) == 2)
        #expect(coders.map(\.decodes) == [1, 1])
    }
}
