import Foundation
import WebImage

extension AnimatedImagePlayer {
    /// How a player plays: speed, order, loops, frame budget and clock.
    public struct Configuration: Sendable {
        /// Speed: 1 is real time, 2 twice as fast, 0.5 half speed, negative plays backwards, 0
        /// holds the current frame.
        public var playbackRate: Double = 1
        /// The order frames are shown in.
        public var playbackMode: PlaybackMode = .normal
        /// Loops before playback ends, overriding the image's own loop count; 0 plays forever,
        /// nil uses the image's.
        public var loopCount: Int?
        /// The most bytes of decoded frames the player keeps; nil for
        /// ``AnimatedImagePlayer/defaultMaxBufferSize(memoryCacheEntryLimit:)``. It always keeps
        /// at least one frame, however small the budget.
        public var maxBufferSize: Int?
        /// The time source; inject a ``ManualPlaybackClock`` to play on virtual time.
        public var clock: any PlaybackClock = ContinuousPlaybackClock()

        public init() {}
    }

    /// SDWebImage's budget for buffered frames: the smaller of 20 % of physical memory and 60 %
    /// of the memory available now, and here also at most what one memory-cache entry may cost
    /// (`memoryCacheEntryLimit`; nil: the default cache's, 10 % of its limit), since a
    /// playing animation should not hold more than the cache would keep for one image.
    public static func defaultMaxBufferSize(memoryCacheEntryLimit: Int? = nil) -> Int {
        let entryLimit =
            memoryCacheEntryLimit
            ?? Int(
                clamping: Double(ImageCacheConfig.defaultMaxMemoryCost) * ImageCacheConfig().maxMemoryEntryFraction)
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        let available = availableMemory() ?? physical
        return max(0, min(physical / 5, available / 5 * 3, entryLimit))
    }

    /// `MemAvailable` from `/proc/meminfo`, in bytes.
    private static func availableMemory() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kibibytes = Int(fields[1]) { return kibibytes * 1024 }
        }
        return nil
    }
}

extension AnimatedImagePlayer {
    /// A frame the player has just shown.
    public struct FrameChange: Sendable {
        /// The frame's index in the animation.
        public let index: Int
        /// Loops completed before this frame.
        public let loop: Int
        /// The frame's pixels (full canvas).
        public let bitmap: ImageBitmap
        /// Clock time the frame was shown.
        public let presentationTime: Duration
        /// Clock time the frame was due on the ideal schedule; presentation is later by however
        /// long decoding took, and never by more than the frame's duration before the player
        /// skips ahead.
        public let scheduledTime: Duration
        /// Frames passed over since the previous change because playback ran late.
        public let skippedFrameCount: Int
        /// Whether playback ended with this frame (the loop count is reached).
        public let isFinal: Bool
    }
}

extension Duration {
    /// Seconds as a floating-point number.
    var playbackSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }

    /// The first whole nanosecond at or after `seconds`.
    static func playbackDeadline(_ seconds: Double) -> Duration {
        // At most about 285 years, so that adding it to a clock reading cannot overflow; NaN is 0.
        .nanoseconds(Int64(clamping: (seconds * 1e9).clamped(to: -9e18...9e18), rounding: .up))
    }
}
