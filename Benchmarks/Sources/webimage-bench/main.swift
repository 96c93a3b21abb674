import Foundation
import WebImage

// webimage-bench: times WebImage's side of each benchmark case and prints one JSON line per
// case. scripts/bench drives it case by case, interleaved with the peers, and prints the table.
//
//   webimage-bench --list
//   webimage-bench --player-report [--rounds N] [--inputs DIR]
//   webimage-bench [--case NAME]... [--filter SUBSTRING] [--runs N] [--warmup N] [--inputs DIR]
//                  [--side ours|peer]
//
// `--side peer` runs the Swift peer of cases whose peer is "swift" (the baseline they are
// compared with) instead of our side.
//
// Exit status: 0 if every selected case ran, 1 if one failed (its line carries "error"),
// 2 for a usage error.

/// Every case, in table order. A new group of cases adds its array here.
let allCases: [BenchCase] =
    codecCases + encodeCases + cacheCases + transformCases + downloadCases + managerCases + serviceCases + proCases

struct Arguments {
    var list = false
    var names: [String] = []
    var filter = ""
    var runs = 10
    var warmup = 3
    var inputs = "Benchmarks/inputs"
    var peer = false
    var playerReport = false
    var rounds = 5

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(for flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value") }
            return value
        }
        func count(for flag: String, minimum: Int) throws -> Int {
            let text = try value(for: flag)
            guard let number = Int(text), number >= minimum else {
                throw BenchError("\(flag) needs a whole number of at least \(minimum), got '\(text)'")
            }
            return number
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--list": list = true
            case "--player-report": playerReport = true
            case "--rounds": rounds = try count(for: flag, minimum: 1)
            case "--case": names.append(try value(for: flag))
            case "--filter": filter = try value(for: flag)
            case "--runs": runs = try count(for: flag, minimum: 1)
            case "--warmup": warmup = try count(for: flag, minimum: 0)
            case "--inputs": inputs = try value(for: flag)
            case "--side":
                let side = try value(for: flag)
                guard side == "ours" || side == "peer" else {
                    throw BenchError("--side is ours or peer, got '\(side)'")
                }
                peer = side == "peer"
            default: throw BenchError("unknown argument '\(flag)'")
            }
        }
    }
}

func selectedCases(_ arguments: Arguments) throws -> [BenchCase] {
    for name in arguments.names where !allCases.contains(where: { $0.name == name }) {
        throw BenchError("no case named '\(name)' (see --list)")
    }
    return allCases.filter { benchCase in
        (arguments.names.isEmpty || arguments.names.contains(benchCase.name))
            && (arguments.filter.isEmpty || benchCase.name.contains(arguments.filter))
    }
}

func printListing(_ cases: [BenchCase]) {
    for benchCase in cases {
        let fields = ["case": benchCase.name, "peer": benchCase.peer, "summary": benchCase.summary]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(fields), let line = String(data: data, encoding: .utf8) {
            print(line)
        }
    }
}

do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    let cases = try selectedCases(arguments)
    if arguments.list {
        printListing(cases)
        exit(0)
    }
    let context = BenchContext(inputsDirectory: URL(fileURLWithPath: arguments.inputs, isDirectory: true))
    if arguments.playerReport {
        let done = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        // Detached: top-level code runs on the main actor, which the semaphore blocks.
        Task.detached {
            do { try await PlayerReport.run(inputs: context.inputsDirectory, rounds: arguments.rounds) } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        exit(0)
    }
    var failed = false
    for benchCase in cases {
        let result = measure(
            benchCase, context: context, warmup: arguments.warmup, runs: arguments.runs, peer: arguments.peer)
        failed = failed || result.error != nil
        print(result.jsonLine)
    }
    exit(failed ? 1 : 0)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(2)
}
