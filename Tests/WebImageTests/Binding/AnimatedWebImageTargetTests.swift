import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

/// A weak reference, so that recording a player does not keep it alive.
final class WeakPlayer: Sendable {
    weak let player: AnimatedImagePlayer?
    init(_ player: AnimatedImagePlayer?) { self.player = player }
}

/// A target that plays animations, recording (weakly) the players it is handed.
final class PlayingTarget: AnimatedWebImageTarget {
    let imageManager: ImageManager
    let autoPlaysAnimatedImages: Bool
    let clock = ManualPlaybackClock()
    private let log = Locked<(images: [Image?], players: [WeakPlayer])>(([], []))

    init(manager: ImageManager, autoPlays: Bool = true) {
        imageManager = manager
        autoPlaysAnimatedImages = autoPlays
    }

    var animatedImagePlayerConfiguration: AnimatedImagePlayer.Configuration {
        var configuration = AnimatedImagePlayer.Configuration()
        configuration.clock = clock
        return configuration
    }

    func displayWebImage(_ image: Image?, cacheType: ImageCacheType, url: URL?) {
        log.withLock { $0.images.append(image) }
    }

    func displayWebImagePlayer(_ player: AnimatedImagePlayer?, url: URL?) {
        log.withLock { $0.players.append(WeakPlayer(player)) }
    }

    var images: [Image?] { log.withLock { $0.images } }
    /// The players handed over, nil for a "no player" call or a player since released.
    var players: [AnimatedImagePlayer?] { log.withLock { $0.players.map(\.player) } }
}

@Suite("Animated web image targets")
struct AnimatedWebImageTargetTests {
    static let animatedURL = URL(string: "test://origin/animated.gif")!
    static let stillURL = URL(string: "test://origin/still.png")!

    static func make(autoPlays: Bool = true) throws -> (PlayingTarget, TargetCompletionLog) {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        loader.respond(to: animatedURL, with: .data(try Fixtures.data("gif/loop3_delays.gif")))
        loader.respond(to: stillURL, with: .data(try BindingFixtures.png(width: 7)))
        return (PlayingTarget(manager: manager, autoPlays: autoPlays), TargetCompletionLog())
    }

    @Test func anAnimatedImageArrivesAsAPlayingPlayerAfterItsFirstFrame() async throws {
        let (target, log) = try Self.make()
        target.setImage(with: Self.animatedURL, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        let player = try #require(target.players.last ?? nil)
        #expect(player.frameCount == 4)
        #expect(player.isPlaying)
        #expect(player.loopCount == 3)
        #expect(target.currentImagePlayer() === player)
        // The first frame was shown the ordinary way first.
        let shown = try #require(target.images.last ?? nil)
        #expect(shown.isAnimated)
        #expect(player.currentFrame == shown.bitmap)
        // The player runs on the target's clock.
        #expect(await eventually { target.clock.sleeperCount == 1 })
        target.clock.advance(by: .seconds(1))
        #expect(await eventually { player.currentFrameIndex != 0 })
        player.stop()
    }

    @Test func changingTheURLStopsAndReleasesTheOldPlayer() async throws {
        let (target, log) = try Self.make()
        target.setImage(with: Self.animatedURL, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        var player = try #require(target.players.last ?? nil)
        let changes = player.frameChanges()
        target.setImage(with: Self.stillURL, completed: log.completion)
        #expect(await settles { log.all.count == 2 })
        BindingFixtures.drain()
        #expect(target.players.count == 2)
        #expect(target.players.last! == nil, "the target is told the player is gone")
        #expect(target.currentImagePlayer() == nil)
        #expect(target.images.last??.width == 7)
        var count = 0
        for await _ in changes { count += 1 }  // ends: the player was stopped
        #expect(count >= 1)
        #expect(!player.isPlaying)
        #expect(player.bufferedByteCount == 0)
        #expect(await eventually { target.clock.sleeperCount == 0 })
        #expect(isKnownUniquelyReferenced(&player), "nothing but this test holds the old player")
    }

    @Test func aTargetThatGoesAwayHasItsPlayerStopped() async throws {
        let (manager, loader, _, _) = try ManagerFixtures.make()
        loader.respond(to: Self.animatedURL, with: .data(try Fixtures.data("gif/loop3_delays.gif")))
        let log = TargetCompletionLog()
        weak var weakPlayer: AnimatedImagePlayer?
        let clock: ManualPlaybackClock
        do {
            let target = PlayingTarget(manager: manager)
            clock = target.clock
            target.setImage(with: Self.animatedURL, completed: log.completion)
            #expect(await settles { log.all.count == 1 })
            BindingFixtures.drain()
            weakPlayer = try #require(target.players.last ?? nil)
            #expect(weakPlayer?.isPlaying == true)
        }
        #expect(await eventually { weakPlayer == nil }, "the sweeper stopped and dropped it")
        #expect(clock.sleeperCount == 0)
    }

    @Test func withoutAutoPlayThePlayerWaitsOnItsFirstFrame() async throws {
        let (target, log) = try Self.make(autoPlays: false)
        target.setImage(with: Self.animatedURL, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        let player = try #require(target.players.last ?? nil)
        #expect(!player.isPlaying)
        #expect(player.currentFrameIndex == 0)
        player.play()
        #expect(player.isPlaying)
        player.stop()
    }

    @Test func aStillImageGetsNoPlayer() async throws {
        let (target, log) = try Self.make()
        target.setImage(with: Self.stillURL, completed: log.completion)
        #expect(await settles { log.all.count == 1 })
        BindingFixtures.drain()
        #expect(target.players.isEmpty)
        #expect(target.images.last??.width == 7)
    }
}
