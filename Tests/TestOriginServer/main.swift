import Foundation
import WebImageTestOrigin

// `webimage-test-origin DIRECTORY`: the tests' origin as a process, for scripts (the Examples run
// in CI). Serves DIRECTORY under /fixtures/ on 127.0.0.1, prints the port on one line, and runs
// until it is sent SIGTERM or SIGINT.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let directory = arguments.first else {
    FileHandle.standardError.write(Data("usage: webimage-test-origin DIRECTORY\n".utf8))
    exit(2)
}
let origin = try await TestOrigin.start(fixturesDirectory: URL(fileURLWithPath: directory, isDirectory: true))
FileHandle.standardOutput.write(Data("\(origin.port)\n".utf8))
while true {
    try await Task.sleep(for: .seconds(3600))
}
