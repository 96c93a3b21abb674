import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("WebImageTarget transitions")
struct WebImageTransitionTests {
    /// A transition that records its hooks and finishes its animation when told to.
    final class Recorder: Sendable {
        let events = Locked<[String]>([])
        let pendingDone = Locked<[@Sendable () -> Void]>([])
        var all: [String] { events.withLock { $0 } }

        func transition(holdAnimation: Bool = false) -> WebImageTransition {
            WebImageTransition(
                prepare: { _, image, cacheType in self.events.withLock { $0.append("prepare \(cacheType)") } },
                animation: { _, _, done in
                    self.events.withLock { $0.append("animate") }
                    if holdAnimation { self.pendingDone.withLock { $0.append(done) } } else { done() }
                },
                completion: { self.events.withLock { $0.append("transition done") } })
        }

        func finishAnimations() {
            for done in pendingDone.withLock({ $0 }) { done() }
        }
    }

    @Test("network results run the transition; memory hits do not unless forceTransition")
    func transitionSources() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let target = RecordingTarget(manager: manager)
        let recorder = Recorder()
        target.imageTransition = recorder.transition()
        let log = TargetCompletionLog()
        target.setImage(with: ManagerFixtures.pngURL, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        #expect(recorder.all == ["prepare none", "animate", "transition done"])
        // The manager stores the memory part before the load ends, so this is a memory hit.
        target.setImage(with: ManagerFixtures.pngURL, completed: log.completion)
        #expect(await settles { log.all.count == 2 })
        #expect(log.all.last?.cacheType == .memory)
        BindingFixtures.drain()
        #expect(recorder.all.count == 3, "no transition for a memory hit")
        target.setImage(with: ManagerFixtures.pngURL, options: [.forceTransition], completed: log.completion)
        #expect(await settles { log.all.count == 3 })
        BindingFixtures.drain()
        #expect(recorder.all.suffix(3) == ["prepare memory", "animate", "transition done"])
        #expect(target.images.count == 3)
    }

    @Test("waitTransition holds the completion until the animation ends")
    func waitTransition() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let target = RecordingTarget(manager: manager)
        let recorder = Recorder()
        target.imageTransition = recorder.transition(holdAnimation: true)
        let log = TargetCompletionLog()
        target.setImage(with: ManagerFixtures.jpegURL, options: [.waitTransition], completed: log.completion)
        #expect(await settles { recorder.all.contains("animate") })
        BindingFixtures.drain()
        #expect(target.images.count == 1)
        #expect(log.all.isEmpty, "the completion waits for the transition")
        recorder.finishAnimations()
        recorder.finishAnimations()  // a second done is ignored
        #expect(log.all.count == 1)
        #expect(recorder.all.filter { $0 == "transition done" }.count == 1)
    }

    @Test("a transition that displays by itself: the binding does not set the image")
    func transitionAvoidsAutoSet() async throws {
        let (manager, _, _, _) = try ManagerFixtures.make()
        let target = RecordingTarget(manager: manager)
        var transition = WebImageTransition(animation: { target, image, done in
            target.displayWebImage(
                Image(bitmap: ImageBitmap(width: 7, height: 7, fill: .white)), cacheType: .none, url: nil)
            done()
        })
        transition.avoidAutoSetImage = true
        target.imageTransition = transition
        let log = TargetCompletionLog()
        target.setImage(with: ManagerFixtures.pngURL, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        #expect(target.images.map { $0.image?.width } == [7])
    }
}
