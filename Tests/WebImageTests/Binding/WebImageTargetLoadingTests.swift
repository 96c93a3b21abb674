import Dispatch
import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("WebImageTarget loading")
struct WebImageTargetLoadingTests {
    @Test("the placeholder is shown first, then the image; the load state records URL and progress")
    func placeholderThenImage() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let target = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        target.setImage(
            with: ManagerFixtures.pngURL, placeholder: BindingFixtures.placeholder, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        let widths = target.all.map { $0.image?.width }
        #expect(widths == [3, 11])
        #expect(target.all.last?.url == ManagerFixtures.pngURL)
        #expect(target.all.last?.cacheType == ImageCacheType.none)
        let state = try #require(target.imageLoadState())
        #expect(state.url == ManagerFixtures.pngURL && state.isFinished && state.fractionCompleted == 1)
        #expect(target.imageLoadState(forKey: "other") == nil)
    }

    @Test("delayPlaceholder: not shown on success, shown only when the load fails")
    func delayPlaceholder() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let success = RecordingTarget(manager: manager)
        let failure = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        success.setImage(
            with: ManagerFixtures.pngURL, placeholder: BindingFixtures.placeholder, options: [.delayPlaceholder],
            completed: log.completion)
        failure.setImage(
            with: ManagerFixtures.garbageURL, placeholder: BindingFixtures.placeholder, options: [.delayPlaceholder],
            completed: log.completion)
        #expect(await settles { log.all.count == 2 })
        BindingFixtures.drain()
        #expect(success.all.map { $0.image?.width } == [11])
        #expect(failure.all.map { $0.image?.width } == [3])
        #expect(log.all.contains { $0.error != nil && $0.url == ManagerFixtures.garbageURL })
    }

    @Test("a failed load without delayPlaceholder leaves the placeholder and shows nothing more")
    func failureKeepsPlaceholder() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let target = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        target.setImage(
            with: ManagerFixtures.garbageURL, placeholder: BindingFixtures.placeholder, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        #expect(target.all.map { $0.image?.width } == [3])
        #expect(log.all.first?.error != nil)
    }

    @Test("avoidAutoSetImage: nothing is set, the completion gets the partial and the final image")
    func avoidAutoSetImage() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let url = URL(string: "test://origin/partial.png")!
        loader.respond(to: url, with: .data(try ManagerFixtures.png(), partial: true))
        let target = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        target.setImage(with: url, options: [.avoidAutoSetImage, .progressiveLoad], completed: log.completion)
        #expect(await settles { log.all.contains { $0.image?.isIncremental == false } })
        BindingFixtures.drain()
        #expect(target.images.isEmpty)
        #expect(target.all.count == 1, "only the (nil) placeholder was shown")
        #expect(log.all.map { $0.image?.isIncremental } == [true, false])
    }

    @Test("partial images are shown as they arrive without avoidAutoSetImage; the completion runs once")
    func partialImagesShown() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let url = URL(string: "test://origin/partial-shown.png")!
        loader.respond(to: url, with: .data(try ManagerFixtures.png(), partial: true))
        let target = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        target.setImage(with: url, options: [.progressiveLoad], completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        #expect(target.images.map { $0.image?.isIncremental } == [true, false])
    }

    @Test("a nil URL or a bad string shows the placeholder and completes with invalidURL")
    func nilURL() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let target = RecordingTarget(manager: manager)
        let indicator = RecordingIndicator()
        target.imageIndicator = indicator
        let log = TargetCompletionLog()
        target.setImage(with: nil as URL?, placeholder: BindingFixtures.placeholder, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        target.setImage(
            with: "", placeholder: BindingFixtures.placeholder, options: [.delayPlaceholder],
            completed: log.completion)
        #expect(await settles { log.all.count == 2 })
        BindingFixtures.drain()
        #expect(log.all.allSatisfy { $0.error?.code == .invalidURL })
        #expect(log.all.last?.error == .invalidURL(""))
        #expect(target.all.map { $0.image?.width } == [3, 3])
        #expect(indicator.all == ["stop", "stop"])
        #expect(!manager.isRunning)
    }

    @Test("a target that goes away mid-load: the load is cancelled, nothing is shown, no crash")
    func targetDeallocatedMidLoad() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let url = URL(string: "test://origin/forever.png")!
        loader.respond(to: url, with: .hang)
        let log = TargetCompletionLog()
        weak var weakTarget: RecordingTarget?
        do {
            let target = RecordingTarget(manager: manager)
            weakTarget = target
            target.setImage(with: url, completed: log.completion)
            #expect(await settles { loader.requestCount(for: url) == 1 })
        }
        #expect(weakTarget == nil, "the binding does not keep the target alive")
        #expect(await settles { !manager.isRunning }, "the load was cancelled")
        BindingFixtures.drain()
        #expect(log.all.isEmpty)
    }

    @Test("cancelCurrentImageLoad stops the load: no image shown, the completion gets cancelled")
    func cancelCurrentLoad() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let url = URL(string: "test://origin/cancel-me.png")!
        loader.respond(to: url, with: .hang)
        let target = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        target.setImage(with: url, completed: log.completion)
        #expect(await settles { loader.requestCount(for: url) == 1 })
        target.cancelCurrentImageLoad()
        #expect(await settles { log.all.count == 1 })
        #expect(log.all.first?.error == .cancelled)
        #expect(!manager.isRunning)
        BindingFixtures.drain()
        #expect(target.images.isEmpty)
    }

    @Test("different operation keys load side by side; each key cancels only its own previous load")
    func operationKeys() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        let hang = URL(string: "test://origin/key-hang.png")!
        loader.respond(to: hang, with: .hang)
        let target = RecordingTarget(manager: manager)
        let log = TargetCompletionLog()
        var background = WebImageContext()
        background.setImageOperationKey = "background"
        target.setImage(with: hang, context: background, completed: log.completion)
        target.setImage(with: ManagerFixtures.pngURL, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        #expect(log.all.first?.image?.width == 11)
        #expect(target.imageLoadState(forKey: "background")?.url == hang)
        #expect(target.imageLoadState()?.url == ManagerFixtures.pngURL)
        target.cancelImageLoad(forKey: "background")
        #expect(await settles { log.all.count == 2 })
        #expect(log.all.last?.error == .cancelled)
    }

    @Test("the indicator starts, reports progress and stops")
    func indicator() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let target = RecordingTarget(manager: manager)
        let indicator = RecordingIndicator()
        target.imageIndicator = indicator
        #expect(target.imageIndicator === indicator)
        let log = TargetCompletionLog()
        target.setImage(with: ManagerFixtures.jpegURL, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        #expect(indicator.all.first == "start")
        #expect(indicator.all.last == "stop")
        #expect(indicator.all.contains("progress 1.0"))
    }

    @Test("a context queue runs the display and the blocks")
    func contextQueue() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let queue = DispatchQueue(label: "test.binding.queue")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = Locked<[Bool]>([])
        final class QueueTarget: WebImageTarget {
            let imageManager: ImageManager
            let check: @Sendable () -> Void
            init(_ manager: ImageManager, _ check: @escaping @Sendable () -> Void) {
                imageManager = manager
                self.check = check
            }
            func displayWebImage(_ image: Image?, cacheType: ImageCacheType, url: URL?) { check() }
        }
        let check: @Sendable () -> Void = {
            onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == true) }
        }
        let target = QueueTarget(manager, check)
        var context = WebImageContext()
        context.callbackQueue = queue
        target.setImage(with: ManagerFixtures.pngURL, context: context, completed: { _, _, _, _ in check() })
        #expect(await settles { onQueue.withLock { $0.count } == 3 })
        #expect(onQueue.withLock { $0 } == [true, true, true])
    }
}
