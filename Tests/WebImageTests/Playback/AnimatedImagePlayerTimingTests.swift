import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Animated image player: timing on a virtual clock")
struct AnimatedImagePlayerTimingTests {
    /// The frame due at `time` seconds, computed independently of the player.
    static func idealFrame(at time: Double, durations: [Double]) -> (index: Int, start: Double) {
        let loop = durations.reduce(0, +)
        let passes = (time / loop).rounded(.down)
        var offset = time - passes * loop
        var start = passes * loop
        for (index, duration) in durations.enumerated() {
            if offset < duration { return (index, start) }
            offset -= duration
            start += duration
        }
        return (durations.count - 1, start)
    }

    @Test func framesFollowTheIdealScheduleForTenSecondsWithoutDrift() async throws {
        let durations = [0.05, 0.1, 0.07, 0.13, 0.04, 0.09, 0.11]
        let harness = try PlayerHarness(durations: durations)
        await harness.play()
        // Steps of 7.0001 ms come no closer than 100 ns to a frame boundary (whole milliseconds).
        while harness.clock.now < .seconds(10) {
            await harness.advance(by: .nanoseconds(7_000_100))
        }
        let end = harness.clock.now.playbackSeconds
        let changes = await harness.changes()
        #expect(changes.count > 100)
        for change in changes.dropFirst() {
            let presented = change.presentationTime.playbackSeconds
            let ideal = Self.idealFrame(at: presented, durations: durations)
            #expect(change.index == ideal.index, "at \(presented)s")
            #expect(abs(change.scheduledTime.playbackSeconds - ideal.start) < 1e-6)
            let lateness = presented - ideal.start
            #expect(lateness >= 0 && lateness < durations[change.index], "frame \(change.index) late by \(lateness)s")
            #expect(change.skippedFrameCount == 0)
        }
        let last = try #require(changes.last)
        #expect(last.index == Self.idealFrame(at: end, durations: durations).index)
    }

    @Test func framesShowExactlyAtTheirDeadlinesWhenTheClockStopsThere() async throws {
        let durations = [0.1, 0.2, 0.3]
        let harness = try PlayerHarness(durations: durations)
        await harness.play()
        for _ in 0..<60 { await harness.step() }  // 20 loops
        let changes = Array(await harness.changes().dropFirst())  // the subscription's current frame
        try #require(changes.count == 61)
        for (number, change) in changes.enumerated() {
            #expect(change.index == number % 3)
            // Deadlines are whole nanoseconds, at most a few after the exact boundary.
            #expect(change.presentationTime - change.scheduledTime < .microseconds(1))
        }
        // 20 loops of 0.6 s, with no accumulated error.
        #expect(abs(changes[60].presentationTime.playbackSeconds - 12) < 1e-6)
    }

    @Test func aLateClockSkipsToTheFrameThatIsDue() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 10))
        await harness.play()
        await harness.advance(by: .milliseconds(350))
        #expect(harness.player.currentFrameIndex == 3)
        #expect(harness.player.skippedFrameCount == 2)
        await harness.advance(by: .milliseconds(1000))  // 1.35 s: frame 3 of the second loop
        #expect(harness.player.currentFrameIndex == 3)
        #expect(harness.player.currentLoop == 1)
        let changes = await harness.changes()
        // The subscription's current frame, the first frame shown, then two skips.
        #expect(changes.map(\.index) == [0, 0, 3, 3])
        #expect(changes.map(\.skippedFrameCount) == [0, 0, 2, 9])
        #expect(abs(changes[2].scheduledTime.playbackSeconds - 0.3) < 1e-6)
        #expect(changes[2].presentationTime == .milliseconds(350))
    }

    @Test func pauseHoldsTheFrameAndPlayContinuesFromIt() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 5))
        await harness.play()
        await harness.advance(by: .milliseconds(150))
        harness.player.pause()
        await harness.advance(by: .seconds(5))
        #expect(harness.player.currentFrameIndex == 1)
        #expect(!harness.player.isPlaying)
        harness.player.play()
        await harness.settle()
        await harness.advance(by: .milliseconds(49))
        #expect(harness.player.currentFrameIndex == 1)
        await harness.step()
        #expect(harness.player.currentFrameIndex == 2)
        let changes = await harness.changes()
        #expect(changes.map(\.index) == [0, 0, 1, 2])
        // Frame 1 had 50 ms left when paused at 150 ms; 5 s of pause later it ends at 5.2 s.
        #expect(abs(changes[3].presentationTime.playbackSeconds - 5.2) < 1e-6)
    }

    @Test func theRealGIFDecoderPlaysItsFramesForTheirDelays() async throws {
        let image = try ImageCodersManager.shared.decode(
            try Fixtures.data("gif/loop3_delays.gif"), options: ImageDecodeOptions())
        let animation = try #require(image.animation)
        let clock = ManualPlaybackClock()
        var configuration = AnimatedImagePlayer.Configuration()
        configuration.clock = clock
        let player = try #require(AnimatedImagePlayer(image: image, configuration: configuration))
        #expect(player.loopCount == 3)
        let changes = await playToEnd(player, on: clock)
        // The subscription's first frame, then 3 loops of 4 frames, then the final repeat.
        let loops: [Int] = Array([[Int]](repeating: [0, 1, 2, 3], count: 3).joined())
        let expected: [Int] = [0] + loops + [3]
        #expect(changes.map(\.index) == expected)
        let total = (0..<4).reduce(0.0) { $0 + animation.duration(at: $1) } * 3
        #expect(abs(try #require(changes.last).presentationTime.playbackSeconds - total) < 1e-6)
        for change in changes.dropFirst() {
            let expected = try animation.frame(at: change.index).bitmap
            #expect(change.bitmap == expected)
        }
    }
}

@Suite("Animated image player: every animated format's lazy frames")
struct AnimatedImagePlayerFormatTests {
    static var fixtures: [String] {
        var paths = ["gif/disposal_previous.gif", "webp/animated.webp", "apng/dispose-blend.png"]
        #if AVIF
            paths.append("avif/animated.avif")
        #endif
        #if JPEGXL
            paths.append("jxl/animated.jxl")
        #endif
        return paths
    }

    @Test(arguments: fixtures)
    func aLoopPlaysEveryFrameOfTheLazyDecoderInOrder(fixture: String) async throws {
        var options = ImageDecodeOptions()
        options.lazyAnimatedFrames = true
        let data = try Fixtures.data(fixture)
        let image = try ImageCodersManager.shared.decode(data, options: options)
        let animation = try #require(image.animation)
        #expect(!animation.isFullyDecoded)
        let reference = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions()).animation
        let clock = ManualPlaybackClock()
        var configuration = AnimatedImagePlayer.Configuration()
        configuration.clock = clock
        configuration.loopCount = 1
        configuration.maxBufferSize = 2 * image.bitmap.byteCount
        let player = try #require(AnimatedImagePlayer(image: image, configuration: configuration))
        let changes = Array(await playToEnd(player, on: clock).dropFirst().dropLast())
        #expect(changes.map(\.index) == Array(0..<animation.frameCount))
        for change in changes {
            #expect(change.bitmap == (try reference?.frame(at: change.index).bitmap), "frame \(change.index)")
        }
        #expect(player.peakBufferedByteCount <= player.maxBufferSize)
        #expect(player.lastError == nil)
    }
}
