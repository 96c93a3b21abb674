import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("WebImageTarget rebinding")
struct WebImageTargetRebindingTests {
    /// 50 URLs whose images are 1...50 pixels wide, answering after uneven delays so that
    /// without cancelling an older load often finishes after a newer one.
    private func fiftyURLs(_ loader: ScriptedLoader) throws -> [URL] {
        try (0..<50).map { index in
            let url = URL(string: "test://origin/rebind/\(index).png")!
            loader.respond(
                to: url, with: .delayed(try BindingFixtures.png(width: index + 1), milliseconds: (50 - index) % 9 * 4))
            return url
        }
    }

    /// Every display with an image: shows its own URL's image, and never an older URL after a newer one.
    private func checkOrder(_ target: RecordingTarget, _ urls: [URL]) throws {
        var newest = -1
        for display in target.images {
            let index = try #require(display.url.flatMap { urls.firstIndex(of: $0) })
            #expect(display.image?.width == index + 1, "the image shown is the one of the URL it was shown for")
            #expect(index >= newest, "URL \(index) shown after URL \(newest)")
            newest = max(newest, index)
        }
        #expect(target.images.last?.url == urls.last)
        #expect(target.images.last?.image?.width == 50)
    }

    @Test("rapid rebinding to 50 URLs ends showing the last URL's image and never an older one")
    func rapidRebinding() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = try fiftyURLs(loader)
        let target = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        for url in urls { target.setImage(with: url, completed: log.completion) }
        #expect(await settles { log.all.count == 50 })
        #expect(await settles { !manager.isRunning })
        BindingFixtures.drain()
        try checkOrder(target, urls)
        #expect(log.all.last?.image?.width == 50)
        #expect(log.all.dropLast().allSatisfy { $0.error == .cancelled || $0.image != nil })
        #expect(target.currentImageURL == urls.last)
    }

    @Test("with avoidAutoCancelImage every load completes, yet no older image replaces a newer one")
    func rebindingWithoutCancel() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = try fiftyURLs(loader)
        let target = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        for url in urls { target.setImage(with: url, options: [.avoidAutoCancelImage], completed: log.completion) }
        #expect(await settles { log.all.count == 50 })
        BindingFixtures.drain()
        #expect(log.all.allSatisfy { $0.image != nil }, "nothing was cancelled")
        try checkOrder(target, urls)
    }

    @Test("rebinding from many tasks at once still ends on the last binding's image")
    func concurrentRebinding() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let urls = try fiftyURLs(loader)
        let target = RecordingTarget(manager: manager)
        await withTaskGroup(of: Void.self) { group in
            for url in urls.dropLast() { group.addTask { target.setImage(with: url) } }
        }
        target.setImage(with: urls.last)
        #expect(await settles { target.images.last?.url == urls.last })
        #expect(await settles { !manager.isRunning })
        BindingFixtures.drain()
        #expect(target.images.last?.image?.width == 50)
    }
}
