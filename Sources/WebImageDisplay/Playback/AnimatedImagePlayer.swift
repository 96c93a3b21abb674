import Foundation
import WebImage

/// Plays an animated image on time with a bounded number of decoded frames
/// (SDWebImage's `SDAnimatedImagePlayer`, without a display link).
///
/// The player asks the image's frames (`ImageAnimation`, decoded lazily by the GIF, WebP, APNG,
/// AVIF and JPEG XL coders through `AnimatedImageProvider`) for the frame each moment needs,
/// and keeps at most ``maxBufferSize`` bytes of them, decoding the next ones ahead on a
/// background task. Which frame shows when is computed from the clock and the frame durations
/// alone, so playback never drifts; when decoding falls behind, the player skips to the frame
/// the clock says is due rather than showing every frame late.
///
/// ```swift
/// guard let player = AnimatedImagePlayer(image: image) else { return }  // nil for a still image
/// player.play()
/// for await change in player.frameChanges() {
///     show(change.bitmap)
/// }
/// ```
public final class AnimatedImagePlayer: Sendable {
    struct Presented {
        var absoluteStep: Int
        var index: Int
        var loop: Int
    }

    struct State {
        var mode: PlaybackMode
        var rate: Double
        var timeline: PlaybackTimeline
        var anchor: PlaybackTimeline.Anchor
        /// Where the last presentation (or seek) left playback.
        var position: PlaybackTimeline.Position
        var presented: Presented?
        var currentFrame: ImageBitmap
        var buffer: PlaybackFrameBuffer
        var isPlaying = false
        /// Bumped by every change that invalidates a running driver's plan.
        var generation = 0
        var driver: Task<Void, Never>?
        /// The generation of the driver that is running, if one is.
        var drivingGeneration: Int?
        var isPrefetching = false
        var lastDeadline: Duration?
        var streams: [Int: AsyncStream<FrameChange>.Continuation] = [:]
        var nextStreamID = 0
        var skippedFrameCount = 0
        var lastError: WebImageError?
    }

    /// Frames in the animation.
    public let frameCount: Int
    /// Bytes of decoded frames the player keeps at most (at least one frame's worth).
    public let maxBufferSize: Int
    let animation: ImageAnimation
    let clock: any PlaybackClock
    private let durations: [Double]
    private let poster: ImageBitmap
    /// All mutable state, behind this lock.
    let state: Locked<State>
    /// Frame decodes under way, by index: a frame asked for twice at once is decoded once.
    let decodes = InFlightTable<Int, ImageBitmap, Never, WebImageError>()

    /// A player for `image`'s animation, paused on its first frame; nil if `image` is not
    /// animated (fewer than two frames).
    public init?(image: Image, configuration: Configuration = Configuration()) {
        guard let animation = image.animation, animation.frameCount > 1 else { return nil }
        self.animation = animation
        frameCount = animation.frameCount
        clock = configuration.clock
        durations = (0..<animation.frameCount).map { animation.duration(at: $0) }
        poster = image.bitmap
        let frameByteCount = max(1, image.bitmap.byteCount)
        let budget = configuration.maxBufferSize ?? Self.defaultMaxBufferSize()
        maxBufferSize = max(budget, frameByteCount)
        let loopLimit = configuration.loopCount ?? animation.loopCount
        let rate = configuration.playbackRate.isFinite ? configuration.playbackRate : 1
        let timeline = PlaybackTimeline(durations: durations, mode: configuration.playbackMode, loopLimit: loopLimit)
        let anchor = Self.startAnchor(timeline, time: configuration.clock.now.playbackSeconds, rate: rate)
        state = Locked(
            State(
                mode: configuration.playbackMode, rate: rate, timeline: timeline, anchor: anchor,
                position: timeline.position(at: anchor.time, from: anchor), currentFrame: image.bitmap,
                buffer: PlaybackFrameBuffer(capacity: maxBufferSize / frameByteCount, frameByteCount: frameByteCount)))
    }

    deinit {
        let (driver, streams) = state.withLock { ($0.driver, Array($0.streams.values)) }
        driver?.cancel()
        for stream in streams { stream.finish() }
    }

    /// The index of the frame showing.
    public var currentFrameIndex: Int { state.withLock { $0.presented?.index ?? 0 } }
    /// The pixels of the frame showing (the first frame until playback shows another).
    public var currentFrame: ImageBitmap { state.withLock { $0.currentFrame } }
    /// Loops completed.
    public var currentLoop: Int { state.withLock { $0.position.loops } }
    /// Loops before playback ends; 0 plays forever.
    public var loopCount: Int { state.withLock { $0.timeline.loopLimit } }
    /// Whether the clock is moving the frames.
    public var isPlaying: Bool { state.withLock { $0.isPlaying } }
    /// Whether playback reached the end of its last loop.
    public var isFinished: Bool { state.withLock { $0.position.isFinished } }
    /// Frames passed over because playback ran late, since the player was made.
    public var skippedFrameCount: Int { state.withLock { $0.skippedFrameCount } }
    /// The last error a frame failed to decode with; that frame's time shows the frame before it.
    public var lastError: WebImageError? { state.withLock { $0.lastError } }
    /// Bytes of decoded frames in the player's buffer now.
    public var bufferedByteCount: Int { state.withLock { $0.buffer.byteCount } }
    /// The most bytes the buffer has held at once; never more than ``maxBufferSize``.
    public var peakBufferedByteCount: Int { state.withLock { $0.buffer.peakByteCount } }
    /// How many frames the buffer holds at most.
    public var bufferCapacity: Int { state.withLock { $0.buffer.capacity } }
    /// Bytes of decoded pixels held for playback: the buffer, plus what the frame source keeps
    /// between frames (a GIF's canvas, all frames of an animation decoded up front).
    public var heldByteCount: Int { bufferedByteCount + animation.heldByteCount }

    /// Speed: 1 is real time, negative plays backwards, 0 holds the current frame.
    public var playbackRate: Double {
        get { state.withLock { $0.rate } }
        set {
            guard newValue.isFinite else { return }
            replan { state, now in
                state.position = Self.position(state, at: now)
                state.rate = newValue
                state.anchor = Self.anchor(continuing: state.position, in: state.timeline, time: now, rate: newValue)
            }
        }
    }

    /// The order frames are shown in; changing it continues from the frame showing.
    public var playbackMode: PlaybackMode {
        get { state.withLock { $0.mode } }
        set {
            replan { state, now in
                let position = Self.position(state, at: now)
                let timeline = PlaybackTimeline(
                    durations: durations, mode: newValue, loopLimit: state.timeline.loopLimit)
                state.mode = newValue
                state.timeline = timeline
                state.anchor = Self.anchor(
                    step: timeline.firstStep(showing: position.frameIndex), loops: position.loops, in: timeline,
                    time: now, rate: state.rate)
                state.position = timeline.position(at: now, from: state.anchor)
                if state.presented != nil {
                    state.presented = Presented(
                        absoluteStep: state.position.absoluteStep, index: state.position.frameIndex,
                        loop: state.position.loops)
                }
            }
        }
    }

    /// Starts or resumes playback. A player that finished starts again from its first loop.
    public func play() {
        replan(restart: true) { state, now in
            guard !state.isPlaying else { return }
            if state.position.isFinished {
                state.anchor = Self.startAnchor(state.timeline, time: now, rate: state.rate)
                state.position = state.timeline.position(at: now, from: state.anchor)
            } else {
                state.anchor = Self.anchor(continuing: state.position, in: state.timeline, time: now, rate: state.rate)
            }
            state.isPlaying = true
        }
    }

    /// Holds the frame showing; ``play()`` continues from it.
    public func pause() {
        replan { state, now in
            guard state.isPlaying else { return }
            state.position = Self.position(state, at: now)
            state.anchor = Self.anchor(continuing: state.position, in: state.timeline, time: now, rate: state.rate)
            state.isPlaying = false
        }
    }

    /// Stops playback, ends every ``frameChanges(bufferingPolicy:)`` sequence, drops the buffered
    /// frames and rewinds to the first frame (SDWebImage's `stopPlaying`).
    public func stop() {
        let (driver, streams) = state.withLock { state in
            state.generation += 1
            state.isPlaying = false
            let driver = state.driver
            state.driver = nil
            state.drivingGeneration = nil
            let streams = Array(state.streams.values)
            state.streams = [:]
            state.buffer.removeAll()
            state.anchor = Self.startAnchor(state.timeline, time: clock.now.playbackSeconds, rate: state.rate)
            state.position = state.timeline.position(at: state.anchor.time, from: state.anchor)
            state.presented = nil
            state.currentFrame = poster
            state.lastDeadline = nil
            return (driver, streams)
        }
        driver?.cancel()
        for stream in streams { stream.finish() }
        // Whoever waits for a frame gets nothing now; decodes under way end unwanted.
        decodes.cancelAll()
    }

    /// Shows frame `index` (clamped to the animation) as the start of loop `loop`, and plays on
    /// from there if playing (SDWebImage's `seekToFrameAtIndex:loopCount:`).
    public func seek(toFrame index: Int, loop: Int = 0) {
        let frame = min(max(index, 0), frameCount - 1)
        replan(restart: true) { state, now in
            let timeline = state.timeline
            let loops = timeline.loopLimit > 0 ? min(max(loop, 0), timeline.loopLimit - 1) : max(loop, 0)
            state.anchor = Self.anchor(
                step: timeline.firstStep(showing: frame), loops: loops, in: timeline, time: now, rate: state.rate)
            state.position = timeline.position(at: now, from: state.anchor)
            state.presented = nil
        }
    }

    /// Drops every buffered frame except the one showing (SDWebImage's `clearFrameBuffer`).
    public func clearFrameBuffer() {
        state.withLock { state in
            let showing = state.presented?.index ?? state.position.frameIndex
            state.buffer.keepOnly([showing])
        }
    }

    /// The frames the player shows, starting with the one showing now. The sequence ends after
    /// a change flagged ``FrameChange/isFinal`` (the loop count is reached; it may repeat the
    /// frame showing), or on ``stop()``.
    ///
    /// By default only the newest change waits for a slow reader, so a reader that falls behind
    /// skips frames instead of holding more of them in memory than the player's buffer.
    public func frameChanges(
        bufferingPolicy: AsyncStream<FrameChange>.Continuation.BufferingPolicy = .bufferingNewest(1)
    ) -> AsyncStream<FrameChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: FrameChange.self, bufferingPolicy: bufferingPolicy)
        let now = clock.now
        let (id, current) = state.withLock { state -> (Int, FrameChange) in
            let id = state.nextStreamID
            state.nextStreamID += 1
            state.streams[id] = continuation
            let current = FrameChange(
                index: state.presented?.index ?? 0, loop: state.position.loops,
                bitmap: state.currentFrame, presentationTime: now, scheduledTime: now, skippedFrameCount: 0,
                isFinal: state.position.isFinished)
            return (id, current)
        }
        continuation.yield(current)
        if current.isFinal {
            _ = state.withLock { $0.streams.removeValue(forKey: id) }
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }
}
