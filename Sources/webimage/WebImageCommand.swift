import ArgumentParser
import Foundation
import WebImage

/// `webimage`: the command-line face of the WebImage library.
struct WebImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webimage",
        abstract: "Fetch, cache, decode, inspect and convert images.",
        version: "webimage \(WebImageVersion.current)",
        subcommands: subcommands)

    /// `serve` is there when the build has the `Server` trait.
    private static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            InfoCommand.self, ConvertCommand.self, FetchCommand.self, PrefetchCommand.self, CacheCommand.self,
            DemoCommand.self,
        ]
        #if Server
            commands.append(ServeCommand.self)
        #endif
        return commands + [ViewCommand.self]
    }
}

/// Runs the command and turns every failure into one `error: <message>` line on standard error
/// and a non-zero exit status, the shape scripts that call `webimage` rely on.
@main
enum WebImageMain {
    static func main() async {
        do {
            var command = try WebImageCommand.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = WebImageCommand.exitCode(for: error)
            if code == .success {
                // --help and --version are not failures.
                WebImageCommand.exit(withError: error)
            }
            let message: String
            var status = code == .success ? 1 : code.rawValue
            if let error = error as? WebImageError {
                message = error.description
            } else if let error = error as? CommandFailure {
                message = error.message
                status = error.exitCode
            } else {
                message = WebImageCommand.message(for: error)
            }
            let oneLine = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? "failed"
            FileHandle.standardError.write(Data("error: \(oneLine)\n".utf8))
            Foundation.exit(status)
        }
    }
}

/// A failure with a message meant for the user, and the exit status it ends the command with:
/// 1, or 2 for a bad configuration value (a flag or variable the server cannot start with).
struct CommandFailure: Error {
    let message: String
    let exitCode: Int32
    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }
}
