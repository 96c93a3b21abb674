import WebImage

/// Where playback is at a given time: pure arithmetic over the frame durations, so that the
/// frame for any instant is computed from one anchor and never accumulates rounding (no drift).
///
/// Playback time runs `rate` times as fast as the clock (backwards when negative) from the
/// anchor. A loop is one pass through the mode's frame order; passes count up whichever way time
/// runs. With a loop limit, playback ends on the last step of the order (the first when running
/// backwards).
struct PlaybackTimeline: Sendable {
    /// A place in the animation: a step of the frame order during the `loops`-th pass.
    struct Position: Sendable, Equatable {
        /// Index into ``PlaybackTimeline/order``.
        var step: Int
        /// The frame shown: `order[step]`.
        var frameIndex: Int
        /// Passes completed.
        var loops: Int
        /// A number that grows by one per step forwards (shrinks backwards), across loops:
        /// two positions are the same presentation exactly when these match.
        var absoluteStep: Int
        /// Seconds into the loop, in `0...loopDuration`.
        var offset: Double
        var isFinished: Bool
    }

    /// The place and speed playback continues from.
    struct Anchor: Sendable {
        /// Clock time of the anchor, in seconds.
        var time: Double
        /// Seconds into the loop at `time`.
        var offset: Double
        /// Passes completed at `time`.
        var loops: Int
        /// Signed pass number at `time` (decreases when running backwards), for ``Position/absoluteStep``.
        var signedLoops: Int
        var rate: Double
    }

    /// The shortest duration a frame is given; frames that declare zero or less show this long.
    static let fallbackFrameDuration = 0.1

    let order: [Int]
    /// `starts[k]` is when step k begins within a loop; `starts[order.count]` is the loop's duration.
    let starts: [Double]
    /// Loops before playback ends; 0 plays forever.
    let loopLimit: Int

    init(durations: [Double], mode: PlaybackMode, loopLimit: Int) {
        order = mode.frameOrder(frameCount: durations.count)
        var starts = [0.0]
        starts.reserveCapacity(order.count + 1)
        for frame in order {
            let duration = durations[frame]
            starts.append(
                starts[starts.count - 1] + (duration.isFinite && duration > 0 ? duration : Self.fallbackFrameDuration))
        }
        self.starts = starts
        self.loopLimit = max(0, loopLimit)
    }

    var loopDuration: Double { starts[order.count] }

    /// The first step that shows `frameIndex`.
    func firstStep(showing frameIndex: Int) -> Int {
        order.firstIndex(of: frameIndex) ?? 0
    }

    /// An anchor at the start of `step` in pass `loops`, at clock time `time`.
    func anchor(step: Int, loops: Int, time: Double, rate: Double) -> Anchor {
        Anchor(
            time: time, offset: starts[min(max(step, 0), order.count - 1)], loops: loops, signedLoops: loops, rate: rate
        )
    }

    /// The anchor that continues from `position` at `time` with a new `rate`.
    func anchor(continuing position: Position, time: Double, rate: Double, signedLoops: Int) -> Anchor {
        Anchor(time: time, offset: position.offset, loops: position.loops, signedLoops: signedLoops, rate: rate)
    }

    /// Where playback is at clock time `time`.
    func position(at time: Double, from anchor: Anchor) -> Position {
        let length = loopDuration
        let elapsed = max(0, time - anchor.time)
        let total = anchor.offset + elapsed * anchor.rate
        let wraps: Double
        let offset: Double
        if anchor.rate >= 0 {
            wraps = (total / length).rounded(.down)
            offset = total - wraps * length
        } else {
            // Running backwards, a step owns (start, end]: reaching a loop's start wraps to its end.
            wraps = (total / length).rounded(.up) - 1
            offset = total - wraps * length
        }
        let passes = Int(Int32(clamping: wraps))
        let loops = anchor.loops + abs(passes)
        if loopLimit > 0, loops >= loopLimit {
            // The last step of the last loop, numbered as it was when it showed.
            let lastPass = max(0, loopLimit - 1 - anchor.loops)
            let signedPass = anchor.rate < 0 ? anchor.signedLoops - lastPass : anchor.signedLoops + lastPass
            return finished(loops: loopLimit, signedLoops: signedPass, backwards: anchor.rate < 0)
        }
        let step = anchor.rate >= 0 ? stepStarting(atOrBefore: offset) : stepEnding(atOrAfter: offset)
        return Position(
            step: step, frameIndex: order[step], loops: loops,
            absoluteStep: (anchor.signedLoops + passes) * order.count + step, offset: offset, isFinished: false)
    }

    /// Clock time at which the step after `position` begins, given `anchor`; nil when playback
    /// has ended or does not move.
    func nextChange(after position: Position, from anchor: Anchor) -> Double? {
        guard !position.isFinished, anchor.rate != 0 else { return nil }
        let length = loopDuration
        let passOrigin = Double(position.absoluteStep - position.step) / Double(order.count) * length
        let boundary = anchor.rate > 0 ? passOrigin + starts[position.step + 1] : passOrigin + starts[position.step]
        let anchorTotal = Double(anchor.signedLoops) * length + anchor.offset
        return anchor.time + (boundary - anchorTotal) / anchor.rate
    }

    /// Clock time at which `position`'s step began on the ideal schedule, given `anchor`; nil
    /// when playback does not move.
    func startTime(of position: Position, from anchor: Anchor) -> Double? {
        guard anchor.rate != 0 else { return nil }
        let length = loopDuration
        let passOrigin = Double(position.absoluteStep - position.step) / Double(order.count) * length
        let boundary = passOrigin + (anchor.rate > 0 ? starts[position.step] : starts[position.step + 1])
        let anchorTotal = Double(anchor.signedLoops) * length + anchor.offset
        return anchor.time + (boundary - anchorTotal) / anchor.rate
    }

    private func finished(loops: Int, signedLoops: Int, backwards: Bool) -> Position {
        let step = backwards ? 0 : order.count - 1
        return Position(
            step: step, frameIndex: order[step], loops: loops,
            absoluteStep: signedLoops * order.count + step,
            offset: backwards ? 0 : loopDuration, isFinished: true)
    }

    private func stepStarting(atOrBefore offset: Double) -> Int {
        var low = 0
        var high = order.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    private func stepEnding(atOrAfter offset: Double) -> Int {
        var low = 0
        var high = order.count - 1
        while low < high {
            let mid = (low + high) / 2
            if starts[mid + 1] >= offset { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
