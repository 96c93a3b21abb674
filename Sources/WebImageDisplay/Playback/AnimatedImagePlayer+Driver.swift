import Foundation
import WebImage

extension AnimatedImagePlayer {
    /// Applies a change to the plan under the lock, then restarts the driver if the player plays
    /// (or, with `restart`, presents the new position once even while paused).
    func replan(restart: Bool = false, _ change: (inout State, Double) -> Void) {
        let now = clock.now.playbackSeconds
        let (old, new) = state.withLock { state -> (Task<Void, Never>?, (generation: Int, continuous: Bool)?) in
            let wasPlaying = state.isPlaying
            change(&state, now)
            guard wasPlaying || state.isPlaying || restart else { return (nil, nil) }
            state.generation += 1
            state.lastDeadline = nil
            let old = state.driver
            state.driver = nil
            state.drivingGeneration = state.generation
            return (old, (state.generation, state.isPlaying))
        }
        old?.cancel()
        guard let new else { return }
        let clock = self.clock
        let task = Task { [weak self] in
            while let deadline = await self?.tick(generation: new.generation, continuous: new.continuous) {
                do { try await clock.sleep(until: deadline) } catch { break }
            }
            self?.state.withLock { state in
                if state.drivingGeneration == new.generation { state.drivingGeneration = nil }
            }
        }
        state.withLock { state in
            if state.generation == new.generation { state.driver = task } else { task.cancel() }
        }
    }

    /// One step of the driver: shows the frame the clock says is due if it is not showing, starts
    /// decoding ahead, and says when to look again (nil: stop driving).
    private func tick(generation: Int, continuous: Bool) async -> Duration? {
        let now = clock.now
        let seconds = now.playbackSeconds
        let plan = state.withLock { state -> (PlaybackTimeline.Position, Bool)? in
            guard state.generation == generation else { return nil }
            let position = state.isPlaying ? state.timeline.position(at: seconds, from: state.anchor) : state.position
            state.position = position
            return (position, state.presented?.absoluteStep != position.absoluteStep)
        }
        guard let (position, needsFrame) = plan else { return nil }
        if needsFrame || position.isFinished {
            let bitmap = needsFrame ? await frame(position.frameIndex) : currentFrame
            guard present(position, bitmap: bitmap, at: now, generation: generation) else { return nil }
        }
        startPrefetching(generation: generation)
        guard continuous, !position.isFinished else {
            if position.isFinished { finishPlayback(generation: generation) }
            return nil
        }
        return state.withLock { state -> Duration? in
            guard state.generation == generation else { return nil }
            guard let next = state.timeline.nextChange(after: position, from: state.anchor) else {
                return nil  // A rate of 0 holds the frame; changing the rate starts a new driver.
            }
            var deadline = Duration.playbackDeadline(next)
            // The boundary and the position are rounded along different paths: nudge the deadline
            // a nanosecond at a time until the position there is the next step, and never spin.
            for _ in 0..<16 {
                let there = state.timeline.position(at: deadline.playbackSeconds, from: state.anchor)
                guard there.absoluteStep == position.absoluteStep, there.isFinished == position.isFinished else {
                    break
                }
                deadline += .nanoseconds(1)
            }
            if let last = state.lastDeadline, deadline <= last, !needsFrame { deadline = last + .milliseconds(1) }
            state.lastDeadline = deadline
            return deadline
        }
    }

    /// Records `position` as shown and tells every reader; false if the plan changed meanwhile.
    private func present(
        _ position: PlaybackTimeline.Position, bitmap: ImageBitmap?, at now: Duration, generation: Int
    ) -> Bool {
        let (streams, change) =
            state.withLock {
                state -> ([AsyncStream<FrameChange>.Continuation], FrameChange?)? in
                guard state.generation == generation else { return nil }
                let skipped = state.presented.map { max(0, abs(position.absoluteStep - $0.absoluteStep) - 1) } ?? 0
                state.skippedFrameCount += skipped
                // A frame that failed to decode keeps the previous one showing, for its slot only.
                let shownIndex = bitmap == nil ? (state.presented?.index ?? 0) : position.frameIndex
                state.presented = Presented(
                    absoluteStep: position.absoluteStep, index: shownIndex, loop: position.loops)
                guard let bitmap else { return ([], nil) }
                state.currentFrame = bitmap
                let scheduled = Duration.playbackDeadline(
                    state.timeline.startTime(of: position, from: state.anchor) ?? now.playbackSeconds)
                let change = FrameChange(
                    index: position.frameIndex, loop: position.loops, bitmap: bitmap, presentationTime: now,
                    scheduledTime: min(scheduled, now), skippedFrameCount: skipped, isFinal: position.isFinished)
                return (Array(state.streams.values), change)
            } ?? ([], nil)
        guard let change else { return state.withLock { $0.generation == generation } }
        for stream in streams { stream.yield(change) }
        return true
    }

    private func finishPlayback(generation: Int) {
        let streams = state.withLock { state -> [AsyncStream<FrameChange>.Continuation] in
            guard state.generation == generation else { return [] }
            state.isPlaying = false
            state.driver = nil
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }

    /// Frame `index`: from the buffer, else from its decode (joining one already under way).
    /// Nil if it fails to decode (the error is kept in ``lastError``) or the player stopped.
    private func frame(_ index: Int) async -> ImageBitmap? {
        if let bitmap = state.withLock({ $0.buffer.frames[index] }) { return bitmap }
        return try? await decodes.value(for: index) { [self] _ throws(WebImageError) in try await decode(index) }
    }

    /// Decodes frame `index` on the CPU threads and hands it to the buffer, unless the player
    /// was stopped meanwhile: a decode cannot be interrupted, and what it makes for a stopped
    /// playback must not refill the buffer that ``stop()`` emptied.
    private func decode(_ index: Int) async throws(WebImageError) -> ImageBitmap {
        let animation = animation
        let generation = state.withLock { $0.generation }
        let result = await ThreadPoolExecutor.cpu.run {
            Result { () throws(WebImageError) in try animation.frame(at: index).bitmap }
        }
        state.withLock { state in
            guard state.generation == generation else { return }
            if case .failure(let error) = result { state.lastError = error }
            state.buffer.land(index, bitmap: try? result.get(), window: window(state))
        }
        return try result.get()
    }

    /// Decodes the frames playback needs next on a background task, until the buffer holds them.
    private func startPrefetching(generation: Int) {
        let start = state.withLock { state in
            guard !state.isPrefetching, state.isPlaying, state.generation == generation,
                state.buffer.nextToDecode(in: window(state), isDecoding: decodes.contains) != nil
            else { return false }
            state.isPrefetching = true
            return true
        }
        guard start else { return }
        Task.detached(priority: .utility) { [weak self] in
            while let self, let index = nextToPrefetch(generation: generation) {
                _ = try? await decodes.value(for: index) { [self] _ throws(WebImageError) in try await decode(index) }
            }
        }
    }

    private func nextToPrefetch(generation: Int) -> Int? {
        state.withLock { state in
            guard state.generation == generation, state.isPlaying,
                let index = state.buffer.nextToDecode(in: window(state), isDecoding: decodes.contains)
            else {
                state.isPrefetching = false
                return nil
            }
            return index
        }
    }

    /// The frames playback shows next, soonest first, as many as the buffer holds: walks the
    /// frame order from the current position in the direction of play, and stops where the loop
    /// count ends playback.
    func window(_ state: State) -> [Int] {
        let timeline = state.timeline
        let position = state.position
        guard !position.isFinished else { return [position.frameIndex] }
        let steps = timeline.order.count
        let direction = state.rate < 0 ? -1 : 1
        var frames: [Int] = []
        var seen = Set<Int>()
        var step = position.step
        var loops = position.loops
        for _ in 0..<steps {
            let frame = timeline.order[step]
            if seen.insert(frame).inserted {
                frames.append(frame)
                if frames.count == state.buffer.capacity { break }
            }
            step += direction
            if step == steps || step < 0 {
                step = (step + steps) % steps
                loops += 1
                if timeline.loopLimit > 0, loops >= timeline.loopLimit { break }
            }
        }
        return frames
    }

    // MARK: Anchors

    /// Where playback is at `time` under the current plan.
    static func position(_ state: State, at time: Double) -> PlaybackTimeline.Position {
        state.isPlaying ? state.timeline.position(at: time, from: state.anchor) : state.position
    }

    /// The start of the first loop: the first step, or the last when playing backwards.
    static func startAnchor(_ timeline: PlaybackTimeline, time: Double, rate: Double) -> PlaybackTimeline.Anchor {
        anchor(step: rate < 0 ? timeline.order.count - 1 : 0, loops: 0, in: timeline, time: time, rate: rate)
    }

    /// Playback at the beginning of `step` (its end, when playing backwards).
    static func anchor(
        step: Int, loops: Int, in timeline: PlaybackTimeline, time: Double, rate: Double
    ) -> PlaybackTimeline.Anchor {
        let offset = rate < 0 ? timeline.starts[step + 1] : timeline.starts[step]
        return PlaybackTimeline.Anchor(time: time, offset: offset, loops: loops, signedLoops: loops, rate: rate)
    }

    /// Playback continuing from `position` at a new rate.
    static func anchor(
        continuing position: PlaybackTimeline.Position, in timeline: PlaybackTimeline, time: Double, rate: Double
    ) -> PlaybackTimeline.Anchor {
        let signedLoops = (position.absoluteStep - position.step) / timeline.order.count
        var offset = position.offset
        // At a loop's very start, backwards play begins at the end of the loop rather than wrapping.
        if rate < 0, offset <= 0 { offset = timeline.starts[position.step + 1] }
        if rate >= 0, offset >= timeline.loopDuration { offset = timeline.starts[position.step] }
        return PlaybackTimeline.Anchor(
            time: time, offset: offset, loops: position.loops, signedLoops: signedLoops, rate: rate)
    }
}
