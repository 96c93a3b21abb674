import Foundation

/// What one timed run produced: a checksum of a few output bytes (so the work cannot be
/// optimised away) and the output's shape, `WxHxFRAMES`, which the harness compares with the
/// peer's to make sure both sides did the same work.
struct RunOutput {
    var checksum: Int
    var shape: String
    /// An encode case's output size in bytes, reported beside the time.
    var bytes: Int? = nil
    /// Work the harness does after the clock stops, before the next run (warm-up runs too):
    /// undoing what this run left behind that would change what the next one measures.
    var afterRun: (() throws -> Void)? = nil
}

/// One benchmark: a name, a setup that runs once untimed, and the body it returns, which is
/// timed. The peer that runs the same case is named by `peer` (see scripts/bench).
struct BenchCase: Sendable {
    typealias Body = () throws -> RunOutput

    let name: String
    /// One line for `--list` and the README: what is measured.
    let summary: String
    /// Who runs the same case for comparison: "pillow" (Benchmarks/peers/pillow_bench.py),
    /// "rsvg" (librsvg itself, Benchmarks/peers/rsvg_bench.py) or "swift" (``peerSetup``, run by
    /// this executable with `--side peer`).
    let peer: String
    /// Loads inputs and prepares state, then returns the body to time.
    let setup: @Sendable (BenchContext) throws -> Body
    /// The peer's side when the peer is plain Swift (a bare locked dictionary, `Data(contentsOf:)`
    /// plus a decode, ...): the baseline our side is compared with.
    let peerSetup: (@Sendable (BenchContext) throws -> Body)?

    init(
        _ name: String, peer: String = "pillow", summary: String,
        setup: @escaping @Sendable (BenchContext) throws -> Body
    ) {
        self.name = name
        self.summary = summary
        self.peer = peer
        self.setup = setup
        self.peerSetup = nil
    }

    /// A case whose peer is Swift code in this executable (`peer` "swift").
    init(
        _ name: String, summary: String, setup: @escaping @Sendable (BenchContext) throws -> Body,
        swiftPeer: @escaping @Sendable (BenchContext) throws -> Body
    ) {
        self.name = name
        self.summary = summary
        self.peer = "swift"
        self.setup = setup
        self.peerSetup = swiftPeer
    }
}

/// What a case's setup may use.
struct BenchContext: Sendable {
    let inputsDirectory: URL

    /// The bytes of a file from Benchmarks/inputs/ (made by Benchmarks/make_inputs.py).
    func input(_ name: String) throws -> Data {
        let url = inputsDirectory.appendingPathComponent(name)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw BenchError("cannot read input \(url.path) (run Benchmarks/make_inputs.py)")
        }
    }
}

/// A failure of the harness itself, such as a missing input or an output of the wrong shape.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
