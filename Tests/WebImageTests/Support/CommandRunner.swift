import Foundation

/// Runs the built `webimage` executable (from the same build as the tests).
enum CommandRunner {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static var executable: URL {
        let packageRoot = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
        let testBinaryDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            testBinaryDirectory.appendingPathComponent("webimage"),
            packageRoot.appendingPathComponent(".build/debug/webimage"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self))
    }

    /// ``run(_:)`` on a thread of its own: waiting for a child process must not hold one of the
    /// few cooperative threads other async tests need.
    static func runOffPool(_ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try run(arguments) }) }.start()
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
