import Foundation
import WebImage
import WebImageDisplay

/// `webimage-bench --player-report`: the animated player's three figures on the 300-frame
/// 800x600 GIF (Benchmarks/inputs/player.gif), printed as a table.
///
/// 1. Memory: the most decoded pixels playback holds (the player's buffer plus the decoder's
///    canvas) against `maxBufferSize` + one frame, and against all frames decoded at once.
/// 2. Timing: 10 s on a virtual clock advanced in uneven 7.0001 ms steps; every frame's
///    lateness against the ideal schedule (summed independently) and the drift at the end.
/// 3. CPU: process CPU time (all threads) per displayed frame while playing one loop through the
///    player, against decoding the same frames in order without it. Medians of `rounds`.
enum PlayerReport {
    static let bufferBudget = 32 << 20

    static func run(inputs: URL, rounds: Int) async throws {
        let data = try Data(contentsOf: inputs.appendingPathComponent("player.gif"))
        let rssBefore = peakResidentBytes()
        let memory = try await playOneLoop(data, budget: bufferBudget, sampleMemory: true)
        let rssGrowth = peakResidentBytes() - rssBefore
        let image = try lazyImage(data)
        let frameBytes = image.bitmap.byteCount
        let allFrames = frameBytes * image.frameCount
        print("player: \(image.frameCount) frames of \(image.width)x\(image.height), \(frameBytes) bytes each")
        print("")
        print("| figure | measured | bound | result |")
        print("|---|---|---|---|")
        let bound = bufferBudget + frameBytes
        row(
            "peak decoded pixels held (buffer + decoder canvas)", mib(memory.peakHeld),
            "\(mib(bound)) (maxBufferSize \(mib(bufferBudget)) + 1 frame)", memory.peakHeld <= bound)
        row("all frames decoded at once", mib(allFrames), "", nil)
        row("peak RSS growth while playing", mib(rssGrowth), "", nil)
        row(
            "frames decoded for one loop", "\(memory.decodes)", "\(image.frameCount) (each once)",
            memory.decodes == image.frameCount)

        let timing = try await virtualTenSeconds(data)
        row(
            "frames shown in 10 s (virtual clock)", "\(timing.frames)", "\(timing.idealFrames) on the ideal schedule",
            timing.frames == timing.idealFrames)
        row(
            "worst lateness against the ideal schedule", String(format: "%.3f ms", timing.worstLateness * 1000),
            String(format: "< %.0f ms (one frame delay)", timing.frameDelay * 1000),
            timing.worstLateness < timing.frameDelay)
        row("drift after 10 s", String(format: "%.6f ms", timing.drift * 1000), "0", timing.drift < 1e-6)

        var ours: [Double] = []
        var alone: [Double] = []
        var faults = (ours: 0, alone: 0)
        for _ in 0..<rounds {
            let start = processCPUMilliseconds()
            let faultsStart = minorPageFaults()
            _ = try await playOneLoop(data, budget: bufferBudget, sampleMemory: false)
            ours.append((processCPUMilliseconds() - start) / Double(image.frameCount))
            faults.ours += minorPageFaults() - faultsStart
            let decodeStart = processCPUMilliseconds()
            let decodeFaultsStart = minorPageFaults()
            try decodeEveryFrame(data)
            alone.append((processCPUMilliseconds() - decodeStart) / Double(image.frameCount))
            faults.alone += minorPageFaults() - decodeFaultsStart
        }
        let oursMedian = median(ours)
        let aloneMedian = median(alone)
        row("CPU per displayed frame, playing", String(format: "%.3f ms", oursMedian), "", nil)
        row("CPU per frame, decoding alone", String(format: "%.3f ms", aloneMedian), "", nil)
        row(
            "ratio (playing / decoding alone)", String(format: "%.2f", oursMedian / aloneMedian), "<= 1.2",
            oursMedian / aloneMedian <= 1.2)
        let frames = Double(rounds * image.frameCount)
        row(
            "minor page faults per frame, playing / alone",
            String(format: "%.0f / %.0f", Double(faults.ours) / frames, Double(faults.alone) / frames), "", nil)
        print("")
        print(
            "CPU rounds (ms per frame): playing \(ours.map { String(format: "%.3f", $0) }), alone \(alone.map { String(format: "%.3f", $0) })"
        )
    }

    // MARK: The three measurements

    static func lazyImage(_ data: Data) throws -> Image {
        var options = ImageDecodeOptions()
        options.lazyAnimatedFrames = true
        return try ImageCodersManager.shared.decode(data, options: options)
    }

    /// Plays one loop on a virtual clock, stepping from deadline to deadline.
    static func playOneLoop(_ data: Data, budget: Int, sampleMemory: Bool) async throws -> (peakHeld: Int, decodes: Int)
    {
        let counting = CountingProvider(try lazyImage(data))
        let clock = ManualPlaybackClock()
        var configuration = AnimatedImagePlayer.Configuration()
        configuration.clock = clock
        configuration.loopCount = 1
        configuration.maxBufferSize = budget
        guard let player = AnimatedImagePlayer(image: counting.image, configuration: configuration) else {
            throw BenchError("player.gif is not animated")
        }
        var changes = player.frameChanges(bufferingPolicy: .unbounded).makeAsyncIterator()
        _ = await changes.next()  // the current frame
        player.play()
        var peak = 0
        while let change = await changes.next() {
            if sampleMemory { peak = max(peak, player.heldByteCount) }
            if change.isFinal { break }
            await clock.waitForSleepers(1)
            if sampleMemory { peak = max(peak, player.heldByteCount) }
            if let deadline = clock.nextDeadline { clock.advance(to: deadline) }
        }
        // The buffer's own peak is exact; the decoder's canvas is one frame throughout.
        peak = max(peak, player.peakBufferedByteCount + counting.canvasBytes)
        player.stop()
        return (peak, counting.decodes)
    }

    static func virtualTenSeconds(_ data: Data) async throws -> (
        frames: Int, idealFrames: Int, worstLateness: Double, drift: Double, frameDelay: Double
    ) {
        let image = try lazyImage(data)
        guard let animation = image.animation else { throw BenchError("player.gif is not animated") }
        let durations = (0..<animation.frameCount).map { animation.duration(at: $0) }
        let clock = ManualPlaybackClock()
        var configuration = AnimatedImagePlayer.Configuration()
        configuration.clock = clock
        configuration.loopCount = 0
        configuration.maxBufferSize = bufferBudget
        guard let player = AnimatedImagePlayer(image: image, configuration: configuration) else {
            throw BenchError("player.gif is not animated")
        }
        // Times only: keeping every change's bitmap would hold all 250 frames.
        let recorder = Task {
            var all: [(presented: Duration, scheduled: Duration)] = []
            for await change in player.frameChanges(bufferingPolicy: .unbounded) {
                all.append((change.presentationTime, change.scheduledTime))
            }
            return all
        }
        player.play()
        await clock.waitForSleepers(1)
        while clock.now < .seconds(10) {
            clock.advance(by: .nanoseconds(7_000_100))
            await clock.waitForSleepers(1)
        }
        player.stop()
        let changes = Array(await recorder.value.dropFirst())  // the subscription's current frame
        // The ideal schedule, summed independently: frame k of pass p starts at p*loop + sum.
        var starts: [Double] = []
        var time = 0.0
        while time <= clock.now.playbackSecondsForReport {
            for duration in durations {
                starts.append(time)
                time += duration
            }
        }
        let end = clock.now.playbackSecondsForReport
        let idealFrames = starts.filter { $0 <= end }.count
        var worst = 0.0
        var drift = 0.0
        for (number, change) in changes.enumerated() where number < starts.count {
            worst = max(worst, change.presented.playbackSecondsForReport - starts[number])
            drift = abs(change.scheduled.playbackSecondsForReport - starts[number])
        }
        return (changes.count, idealFrames, worst, drift, durations.min() ?? 0)
    }

    static func decodeEveryFrame(_ data: Data) throws {
        let image = try lazyImage(data)
        guard let animation = image.animation else { return }
        var checksum = 0
        for index in 0..<animation.frameCount {
            checksum &+= Int(try animation.frame(at: index).bitmap.pixels[index])
        }
        if checksum == -1 { print(checksum) }
    }

    // MARK: Helpers

    /// Counts the decodes of an image's lazy frames.
    final class CountingProvider: AnimatedImageProvider, @unchecked Sendable {
        // @unchecked: `count` is only touched under `lock`; `inner` is Sendable.
        let inner: ImageAnimation
        let poster: ImageBitmap
        private let lock = NSLock()
        private var count = 0

        init(_ image: Image) {
            inner = image.animation!
            poster = image.bitmap
        }

        var image: Image { Image(bitmap: poster, animation: ImageAnimation(provider: self)) }
        var decodes: Int { lock.withLock { count } }
        var canvasBytes: Int { inner.heldByteCount }

        var animatedImageData: Data { Data() }
        var frameCount: Int { inner.frameCount }
        var loopCount: Int { inner.loopCount }
        func duration(at index: Int) -> Double { inner.duration(at: index) }
        func frame(at index: Int) throws(WebImageError) -> ImageBitmap {
            lock.withLock { count += 1 }
            return try inner.frame(at: index).bitmap
        }
        var heldByteCount: Int { inner.heldByteCount }
    }

    static func row(_ figure: String, _ measured: String, _ bound: String, _ holds: Bool?) {
        let result = holds.map { $0 ? "holds" : "MISSED" } ?? ""
        print("| \(figure) | \(measured) | \(bound) | \(result) |")
    }

    static func mib(_ bytes: Int) -> String { String(format: "%.1f MiB", Double(bytes) / 1_048_576) }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func minorPageFaults() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_minflt
    }

    /// The process's peak resident set so far, in bytes.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
}

extension Duration {
    fileprivate var playbackSecondsForReport: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
