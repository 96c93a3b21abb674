import Foundation
import Testing

@testable import WebImage
@testable import WebImageDisplay

/// Frames of one solid colour each (red channel = index), counting every decode.
final class CountingFrameProvider: AnimatedImageProvider {
    let animatedImageData = Data()
    let frameCount: Int
    let loopCount: Int
    let width: Int
    let height: Int
    private let durations: [Double]
    private let failing: Set<Int>
    /// Decodes per frame index, behind this lock.
    private let decodes: Locked<[Int]>

    init(durations: [Double], loopCount: Int = 0, width: Int = 4, height: Int = 3, failing: Set<Int> = []) {
        frameCount = durations.count
        self.loopCount = loopCount
        self.durations = durations
        self.width = width
        self.height = height
        self.failing = failing
        decodes = Locked(Array(repeating: 0, count: durations.count))
    }

    var decodeCounts: [Int] { decodes.withLock { $0 } }
    var frameByteCount: Int { width * height * 4 }

    func duration(at index: Int) -> Double { durations[index] }

    func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
        decodes.withLock { $0[index] += 1 }
        if failing.contains(index) { throw .badImageData("frame \(index) is broken on purpose") }
        return Self.bitmap(index, width: width, height: height)
    }

    var heldByteCount: Int { 0 }

    static func bitmap(_ index: Int, width: Int = 4, height: Int = 3) -> ImageBitmap {
        ImageBitmap(width: width, height: height, fill: RGBA8(r: UInt8(index), g: 0, b: 0, a: 255))
    }

    /// An animated image over this provider, its poster frame 0.
    func image() -> Image {
        Image(bitmap: Self.bitmap(0, width: width, height: height), animation: ImageAnimation(provider: self))
    }
}

/// A player on virtual time, with every frame change it makes recorded.
struct PlayerHarness {
    let clock: ManualPlaybackClock
    let provider: CountingFrameProvider
    let player: AnimatedImagePlayer
    let recorder: Task<[AnimatedImagePlayer.FrameChange], Never>

    init(
        durations: [Double], loopCount: Int = 0, mode: PlaybackMode = .normal, rate: Double = 1,
        bufferFrames: Int? = nil, failing: Set<Int> = []
    ) throws {
        let clock = ManualPlaybackClock()
        let provider = CountingFrameProvider(durations: durations, loopCount: loopCount, failing: failing)
        var configuration = AnimatedImagePlayer.Configuration()
        configuration.clock = clock
        configuration.playbackMode = mode
        configuration.playbackRate = rate
        configuration.maxBufferSize = bufferFrames.map { $0 * provider.frameByteCount }
        let player = try #require(AnimatedImagePlayer(image: provider.image(), configuration: configuration))
        let changes = player.frameChanges(bufferingPolicy: .unbounded)
        self.clock = clock
        self.provider = provider
        self.player = player
        recorder = Task {
            var all: [AnimatedImagePlayer.FrameChange] = []
            for await change in changes { all.append(change) }
            return all
        }
    }

    /// Returns once the player has acted on the clock's time: it sleeps again, or stopped driving.
    func settle() async {
        let player = self.player
        let clock = self.clock
        #expect(
            await eventually {
                player.state.withLock { state in
                    (clock.sleeperCount > 0 || state.drivingGeneration == nil) && !state.isPrefetching
                }
            })
    }

    /// Starts playback and waits for the first frame.
    func play() async {
        player.play()
        await settle()
    }

    /// Moves the clock to the player's next deadline and lets it act; false if it has none.
    @discardableResult
    func step() async -> Bool {
        guard let deadline = clock.nextDeadline else { return false }
        clock.advance(to: deadline)
        await settle()
        return true
    }

    /// Moves the clock by `interval` and lets the player act.
    func advance(by interval: Duration) async {
        clock.advance(by: interval)
        await settle()
    }

    /// Every change recorded, once the recording has ended (stops the player).
    func changes() async -> [AnimatedImagePlayer.FrameChange] {
        player.stop()
        return await recorder.value
    }
}

/// Plays `player` on `clock` from deadline to deadline until it finishes, and returns every
/// change it made (the subscription's current frame first).
func playToEnd(_ player: AnimatedImagePlayer, on clock: ManualPlaybackClock) async -> [AnimatedImagePlayer.FrameChange]
{
    let recorder = Task {
        var all: [AnimatedImagePlayer.FrameChange] = []
        for await change in player.frameChanges(bufferingPolicy: .unbounded) { all.append(change) }
        return all
    }
    player.play()
    while !player.isFinished {
        #expect(await eventually { clock.sleeperCount > 0 || player.isFinished })
        if let deadline = clock.nextDeadline { clock.advance(to: deadline) }
    }
    return await recorder.value
}

extension Duration {
    /// `seconds` as a duration, to the nanosecond.
    static func at(_ seconds: Double) -> Duration {
        .nanoseconds(Int64(clamping: seconds * 1e9, rounding: .toNearestOrAwayFromZero))
    }
}
