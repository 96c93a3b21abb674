import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Animated image player: loops, modes, rates, seeking and stopping")
struct AnimatedImagePlayerPlaybackTests {
    /// Plays to the end on virtual time and returns the frames shown, without the subscription's
    /// first (current) frame and the final change's repeat.
    static func playToEnd(_ harness: PlayerHarness) async throws -> [Int] {
        await harness.play()
        var steps = 0
        while !harness.player.isFinished, steps < 1000 {
            await harness.step()
            steps += 1
        }
        let changes = await harness.recorder.value
        let final = try #require(changes.last)
        #expect(final.isFinal)
        return changes.dropFirst().dropLast().map(\.index)
    }

    @Test func theLoopCountEndsPlaybackAfterThatManyLoops() async throws {
        let harness = try PlayerHarness(durations: [0.1, 0.1, 0.1], loopCount: 2)
        #expect(try await Self.playToEnd(harness) == [0, 1, 2, 0, 1, 2])
        #expect(harness.player.isFinished)
        #expect(!harness.player.isPlaying)
        #expect(harness.player.currentLoop == 2)
        #expect(harness.player.currentFrameIndex == 2)
        #expect(abs(harness.clock.now.playbackSeconds - 0.6) < 1e-6)
        #expect(harness.clock.sleeperCount == 0)
    }

    @Test func theConfiguredLoopCountOverridesTheImages() async throws {
        let provider = CountingFrameProvider(durations: [0.1, 0.1], loopCount: 5)
        var configuration = AnimatedImagePlayer.Configuration()
        configuration.loopCount = 1
        let player = try #require(AnimatedImagePlayer(image: provider.image(), configuration: configuration))
        #expect(player.loopCount == 1)
        let forever = try #require(AnimatedImagePlayer(image: provider.image()))
        #expect(forever.loopCount == 5)
    }

    @Test(arguments: [
        (PlaybackMode.normal, [0, 1, 2, 3, 0, 1, 2, 3]),
        (.reverse, [3, 2, 1, 0, 3, 2, 1, 0]),
        (.bounce, [0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1]),
        (.reversedBounce, [3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2]),
    ])
    func everyPlaybackModeShowsFramesInItsOrder(mode: PlaybackMode, expected: [Int]) async throws {
        let harness = try PlayerHarness(durations: [0.1, 0.2, 0.1, 0.3], loopCount: 2, mode: mode)
        #expect(try await Self.playToEnd(harness) == expected)
        let loop = expected.prefix(expected.count / 2).reduce(0.0) { $0 + [0.1, 0.2, 0.1, 0.3][$1] }
        #expect(abs(harness.clock.now.playbackSeconds - 2 * loop) < 1e-6)
    }

    @Test(arguments: [
        (PlaybackMode.normal, [3, 2, 1, 0, 3, 2, 1, 0]),
        (.reverse, [0, 1, 2, 3, 0, 1, 2, 3]),
        (.bounce, [1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0]),
        (.reversedBounce, [2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3]),
    ])
    func aNegativeRatePlaysTheModesOrderBackwards(mode: PlaybackMode, expected: [Int]) async throws {
        let harness = try PlayerHarness(durations: [0.1, 0.1, 0.1, 0.1], loopCount: 2, mode: mode, rate: -1)
        #expect(try await Self.playToEnd(harness) == expected)
        #expect(harness.player.currentLoop == 2)
    }

    @Test func aRateOfTwoPlaysInHalfTheTime() async throws {
        let harness = try PlayerHarness(durations: [0.1, 0.2, 0.1], loopCount: 1, rate: 2)
        #expect(try await Self.playToEnd(harness) == [0, 1, 2])
        #expect(abs(harness.clock.now.playbackSeconds - 0.2) < 1e-6)
    }

    @Test func aRateOfAHalfPlaysInTwiceTheTime() async throws {
        let harness = try PlayerHarness(durations: [0.1, 0.2, 0.1], loopCount: 1, rate: 0.5)
        #expect(try await Self.playToEnd(harness) == [0, 1, 2])
        #expect(abs(harness.clock.now.playbackSeconds - 0.8) < 1e-6)
    }

    @Test func changingTheRateMidFrameContinuesFromThere() async throws {
        let harness = try PlayerHarness(durations: [0.1, 0.1, 0.1, 0.1])
        await harness.play()
        await harness.advance(by: .milliseconds(150))  // halfway through frame 1
        harness.player.playbackRate = -1
        await harness.settle()
        await harness.advance(by: .milliseconds(60))  // 90 ms into the loop: frame 0
        #expect(harness.player.currentFrameIndex == 0)
        await harness.advance(by: .milliseconds(100))  // wrapped backwards into frame 3
        #expect(harness.player.currentFrameIndex == 3)
        #expect(harness.player.currentLoop == 1)
        harness.player.playbackRate = 0
        await harness.advance(by: .seconds(3))
        #expect(harness.player.currentFrameIndex == 3)
        #expect(harness.clock.sleeperCount == 0)
        harness.player.playbackRate = 1
        await harness.settle()
        await harness.step()
        #expect(harness.player.currentFrameIndex == 0)
        #expect(harness.player.currentLoop == 2)
        let changes = await harness.changes()
        #expect(changes.map(\.index) == [0, 0, 1, 0, 3, 0])
    }

    @Test func changingTheModeContinuesFromTheFrameShowing() async throws {
        let harness = try PlayerHarness(durations: [0.1, 0.1, 0.1, 0.1])
        await harness.play()
        await harness.step()
        await harness.step()  // frame 2
        harness.player.playbackMode = .reverse
        await harness.settle()
        for _ in 0..<3 { await harness.step() }
        let changes = await harness.changes()
        #expect(changes.map(\.index) == [0, 0, 1, 2, 1, 0, 3])
    }

    @Test func seekingWhilePausedShowsTheFrameAndPlayGoesOnFromIt() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 8), loopCount: 3)
        harness.player.seek(toFrame: 5, loop: 1)
        #expect(await eventually { harness.player.currentFrameIndex == 5 })
        #expect(harness.player.currentFrame == CountingFrameProvider.bitmap(5))
        #expect(harness.player.currentLoop == 1)
        #expect(!harness.player.isPlaying)
        await harness.play()
        await harness.step()
        #expect(harness.player.currentFrameIndex == 6)
        harness.player.seek(toFrame: 99)  // clamped to the last frame, loop 0
        await harness.settle()
        #expect(harness.player.currentFrameIndex == 7)
        #expect(harness.player.currentLoop == 0)
        await harness.step()
        #expect(harness.player.currentFrameIndex == 0)
        #expect(harness.player.currentLoop == 1)
        let changes = await harness.changes()
        #expect(changes.map(\.index) == [0, 5, 6, 7, 0])
    }

    @Test func stopEndsTheSequencesRewindsAndReleasesFrames() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 6))
        await harness.play()
        await harness.step()
        await harness.step()
        #expect(harness.player.bufferedByteCount > 0)
        let changes = await harness.changes()  // stops
        #expect(changes.map(\.index) == [0, 0, 1, 2])
        #expect(await eventually { harness.clock.sleeperCount == 0 })
        #expect(!harness.player.isPlaying)
        #expect(harness.player.currentFrameIndex == 0)
        #expect(harness.player.currentFrame == CountingFrameProvider.bitmap(0))
        #expect(harness.player.bufferedByteCount == 0)
        // It plays again from the start.
        harness.player.play()
        #expect(await eventually { harness.clock.sleeperCount == 1 })
        await harness.step()
        #expect(harness.player.currentFrameIndex == 1)
        #expect(abs(harness.clock.now.playbackSeconds - 0.3) < 1e-6)
        harness.player.stop()
    }

    @Test func aPlayerThatGoesAwayStopsItsDriverAndSequences() async throws {
        let clock = ManualPlaybackClock()
        let provider = CountingFrameProvider(durations: [0.1, 0.1, 0.1])
        var configuration = AnimatedImagePlayer.Configuration()
        configuration.clock = clock
        weak var weakPlayer: AnimatedImagePlayer?
        let changes: AsyncStream<AnimatedImagePlayer.FrameChange>
        do {
            let player = try #require(AnimatedImagePlayer(image: provider.image(), configuration: configuration))
            weakPlayer = player
            changes = player.frameChanges()
            player.play()
            #expect(await eventually { clock.sleeperCount == 1 })
        }
        #expect(await eventually { weakPlayer == nil && clock.sleeperCount == 0 })
        var count = 0
        for await _ in changes { count += 1 }  // ends: the player's deinit finished it
        #expect(count >= 1)
    }

    @Test func aFrameThatFailsToDecodeKeepsThePreviousOneForItsSlot() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 5), loopCount: 1, failing: [2])
        #expect(try await Self.playToEnd(harness) == [0, 1, 3, 4])
        #expect(harness.player.lastError?.code == .badImageData)
    }

    @Test func aStillImageHasNoPlayer() throws {
        let still = Image(bitmap: CountingFrameProvider.bitmap(0))
        #expect(AnimatedImagePlayer(image: still) == nil)
        let oneFrame = Image(
            bitmap: CountingFrameProvider.bitmap(0),
            animation: ImageAnimation(
                frames: [ImageFrame(bitmap: CountingFrameProvider.bitmap(0), duration: 1)], loopCount: 0))
        #expect(AnimatedImagePlayer(image: oneFrame) == nil)
    }
}
