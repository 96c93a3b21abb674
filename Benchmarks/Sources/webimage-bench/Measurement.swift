import Foundation

/// One case's result, printed as one JSON line (the format Benchmarks/peers/pillow_bench.py
/// prints too, so scripts/bench reads both the same way).
struct CaseResult: Encodable {
    let `case`: String
    let side: String
    let tool: String
    var warmup = 0
    var runs = 0
    var medianMs: Double?
    var minMs: Double?
    var samplesMs: [Double]?
    /// Median CPU time (user + system, all threads) of the timed runs: less disturbed than the
    /// wall time by other work on the machine, for comparing changes.
    var cpuMedianMs: Double?
    var output: String?
    var checksum: Int?
    /// An encode case's output size.
    var bytes: Int?
    var error: String?

    enum CodingKeys: String, CodingKey {
        case `case`, side, tool, warmup, runs, output, checksum, bytes, error
        case medianMs = "median_ms"
        case minMs = "min_ms"
        case samplesMs = "samples_ms"
        case cpuMedianMs = "cpu_median_ms"
    }

    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self), let line = String(data: data, encoding: .utf8) else {
            return #"{"case":"\#(self.case)","side":"\#(side)","error":"cannot encode the result"}"#
        }
        return line
    }
}

/// Runs `benchCase` (our side, or with `peer` its Swift peer): its setup once, `warmup` untimed
/// runs, then `runs` timed runs. Never throws: a failure anywhere becomes the result's `error`.
func measure(_ benchCase: BenchCase, context: BenchContext, warmup: Int, runs: Int, peer: Bool = false)
    -> CaseResult
{
    var result = CaseResult(case: benchCase.name, side: peer ? "peer" : "ours", tool: peer ? "swift" : "webimage")
    result.warmup = warmup
    result.runs = runs
    do {
        let setup: @Sendable (BenchContext) throws -> BenchCase.Body
        if peer {
            guard let peerSetup = benchCase.peerSetup else {
                throw BenchError("case '\(benchCase.name)' has no Swift peer (its peer is \(benchCase.peer))")
            }
            setup = peerSetup
        } else {
            setup = benchCase.setup
        }
        let body = try setup(context)
        var checksum = 0
        var shape = ""
        for _ in 0..<warmup {
            let output = try body()
            checksum &+= output.checksum
            shape = output.shape
            try output.afterRun?()
        }
        let clock = ContinuousClock()
        var samples: [Double] = []
        var cpuSamples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let cpuStart = processCPUMilliseconds()
            let start = clock.now
            let output = try body()
            let elapsed = clock.now - start
            cpuSamples.append(processCPUMilliseconds() - cpuStart)
            samples.append(milliseconds(elapsed))
            checksum &+= output.checksum
            shape = output.shape
            result.bytes = output.bytes
            try output.afterRun?()
        }
        let sorted = samples.sorted()
        result.samplesMs = samples.map(rounded)
        result.medianMs = sorted.isEmpty ? nil : rounded(median(sorted))
        result.minMs = sorted.first.map(rounded)
        result.cpuMedianMs = cpuSamples.isEmpty ? nil : rounded(median(cpuSamples.sorted()))
        result.output = shape
        result.checksum = checksum
    } catch {
        result.error = "\(error)"
    }
    return result
}

private func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
}

private func median(_ sorted: [Double]) -> Double {
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

private func rounded(_ value: Double) -> Double {
    (value * 1_000).rounded() / 1_000
}

/// User plus system CPU time of this process so far, in milliseconds.
func processCPUMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}
