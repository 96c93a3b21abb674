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

    /// Starts the executable `name` (for tests that read its output as it comes or signal it).
    static func start(
        _ arguments: [String], executable name: String = webimage, environment: [String: String]? = nil,
        standardError: ChildProcess.StandardError = .pipe
    ) throws -> ChildProcess {
        try ChildProcess(
            executable: executable(name).path, arguments: arguments, environment: environment,
            standardError: standardError)
    }

    /// Runs the executable `name` to completion: its exit status, standard output and error.
    /// A child killed by a signal reports 128 plus the signal's number, as a shell would.
    static func run(
        _ arguments: [String], executable name: String = webimage, environment: [String: String]? = nil
    ) throws -> Result {
        let child = try start(arguments, executable: name, environment: environment)
        let (output, error) = child.readToEnd()
        let status: Int32
        switch child.waitForExit() {
        case .exited(let code): status = code
        case .signalled(let signal): status = 128 + signal
        }
        return Result(
            status: status, standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self))
    }

    /// ``run(_:executable:)`` on a thread of its own: waiting for a child process must not hold
    /// one of the few cooperative threads other async tests need.
    static func runOffPool(
        _ arguments: [String], executable name: String = webimage, environment: [String: String]? = nil
    ) async throws -> Result {
        try await onOwnThread { try run(arguments, executable: name, environment: environment) }
    }

    /// The test process's environment without any `WEBIMAGE_*`, `IMGPROXY_*` or `OTEL_*`
    /// variable, plus `variables`: what a child sees when a test decides its configuration.
    static func environment(_ variables: [String: String] = [:]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("WEBIMAGE_") && !$0.key.hasPrefix("IMGPROXY_") && !$0.key.hasPrefix("OTEL_")
        }.merging(variables) { $1 }
    }
}

/// The JSON object a command printed (its `--json` output); fails the test when it is not one.
func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
