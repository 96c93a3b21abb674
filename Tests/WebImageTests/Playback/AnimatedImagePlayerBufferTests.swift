import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

@Suite("Animated image player: the bounded frame buffer")
struct AnimatedImagePlayerBufferTests {
    @Test func theBufferNeverHoldsMoreThanItsLimitAndDecodesEachFrameOncePerLoop() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 10), loopCount: 3, bufferFrames: 3)
        let player = harness.player
        #expect(player.bufferCapacity == 3)
        #expect(player.maxBufferSize == 3 * harness.provider.frameByteCount)
        await harness.play()
        while !player.isFinished {
            #expect(player.bufferedByteCount <= player.maxBufferSize)
            await harness.step()
        }
        let changes = await harness.recorder.value
        #expect(changes.count == 1 + 30 + 1)
        #expect(player.peakBufferedByteCount == player.maxBufferSize)
        #expect(harness.provider.decodeCounts == Array(repeating: 3, count: 10))
    }

    @Test func framesThatAllFitAreDecodedOnceForEveryLoop() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 10), loopCount: 4, bufferFrames: 10)
        await harness.play()
        while !harness.player.isFinished { await harness.step() }
        _ = await harness.recorder.value
        #expect(harness.provider.decodeCounts == Array(repeating: 1, count: 10))
        #expect(harness.player.bufferedByteCount == 10 * harness.provider.frameByteCount)
    }

    @Test func framesAheadAreDecodedBeforeTheyAreDue() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 10), bufferFrames: 4)
        await harness.play()
        // Frame 0 was decoded to show it; the prefetcher decoded the next three meanwhile.
        #expect(harness.provider.decodeCounts == [1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
        await harness.step()
        #expect(harness.provider.decodeCounts == [1, 1, 1, 1, 1, 0, 0, 0, 0, 0])
        let buffered = harness.player.state.withLock { Set($0.buffer.frames.keys) }
        #expect(buffered == [1, 2, 3, 4])
        harness.player.stop()
    }

    @Test func aBudgetBelowOneFrameStillKeepsOneFrame() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 5), loopCount: 1, bufferFrames: 0)
        #expect(harness.player.bufferCapacity == 1)
        #expect(harness.player.maxBufferSize == harness.provider.frameByteCount)
        #expect(try await AnimatedImagePlayerPlaybackTests.playToEnd(harness) == [0, 1, 2, 3, 4])
        #expect(harness.player.peakBufferedByteCount == harness.provider.frameByteCount)
    }

    @Test func clearingTheBufferKeepsOnlyTheFrameShowing() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 6), bufferFrames: 6)
        await harness.play()
        await harness.step()
        #expect(harness.player.bufferedByteCount == 6 * harness.provider.frameByteCount)
        harness.player.clearFrameBuffer()
        #expect(harness.player.bufferedByteCount == harness.provider.frameByteCount)
        harness.player.stop()
    }

    @Test func theDefaultBudgetIsBoundedByMemoryAndTheCachesEntryLimit() {
        let byDefault = AnimatedImagePlayer.defaultMaxBufferSize()
        #expect(byDefault > 0)
        #expect(byDefault <= Int(clamping: Double(ImageCacheConfig.defaultMaxMemoryCost) * 0.1))
        #expect(byDefault <= Int(ProcessInfo.processInfo.physicalMemory / 5))
        #expect(AnimatedImagePlayer.defaultMaxBufferSize(memoryCacheEntryLimit: 12_345) == 12_345)
        let provider = CountingFrameProvider(durations: [0.1, 0.1], width: 100, height: 100)
        let player = AnimatedImagePlayer(image: provider.image())
        #expect(player?.maxBufferSize == byDefault)
        #expect(player?.bufferCapacity == byDefault / 40_000)
    }

    @Test func aSlowReaderGetsTheNewestFrameNotABacklog() async throws {
        let harness = try PlayerHarness(durations: Array(repeating: 0.1, count: 10), bufferFrames: 2)
        let newest = harness.player.frameChanges()
        await harness.play()
        for _ in 0..<5 { await harness.step() }
        var iterator = newest.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.index == 5)
        harness.player.stop()
        #expect(await iterator.next() == nil)
    }
}
