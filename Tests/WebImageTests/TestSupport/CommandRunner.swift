import Foundation
import Testing

/// Runs executables from the same build as the tests: the `webimage` command by default, or a
/// helper such as ``CacheTorture``'s.
enum CommandRunner {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static let webimage = "webimage"

    /// The executable `name`: beside the test binary, else in the package's debug build.
    static func executable(_ name: String = webimage) -> URL {
        let packageRoot = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        let testBinaryDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            testBinaryDirectory.appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }

    /// A process of the executable `name`, not started yet, with its standard output on a pipe
    /// (for tests that read the output as it comes or signal the process).
    static func process(_ arguments: [String], executable name: String = webimage) -> (Process, Pipe) {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        return (process, out)
    }

    /// Runs the executable `name` to completion: its exit status, standard output and error.
    static func run(_ arguments: [String], executable name: String = webimage) throws -> Result {
        let (process, out) = process(arguments, executable: name)
        let err = Pipe()
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }

    /// ``run(_:executable:)`` on a thread of its own: waiting for a child process must not hold
    /// one of the few cooperative threads other async tests need.
    static func runOffPool(_ arguments: [String], executable name: String = webimage) async throws -> Result {
        try await onOwnThread { try run(arguments, executable: name) }
    }
}

/// The JSON object a command printed (its `--json` output); fails the test when it is not one.
func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
