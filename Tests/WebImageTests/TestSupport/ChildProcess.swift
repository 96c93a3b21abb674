import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, its standard output (and optionally its standard
/// error) on pipes of its own.
///
/// The tests do not use Foundation's `Process`: on Linux its `run()` walks `/proc/self/fd` and
/// copies each directory entry's full 256-byte name field, which reads past glibc's buffer and
/// crashes now and then when the test process has many descriptors open (swift-corelibs-foundation
/// pull request 5472, not in Swift 6.3.1). The child closes every descriptor from 3 up, so it
/// never holds another child's pipe, and a reader sees end-of-file when its own child exits.
final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Where the child's standard error goes.
    enum StandardError {
        case pipe
        case discarded
    }

    struct SpawnFailure: Error, CustomStringConvertible {
        let description: String
    }

    let pid: pid_t
    private let outputDescriptor: Int32
    private let errorDescriptor: Int32?
    private let lock = NSLock()  // the output descriptors and what is read ahead of a line
    private let stateLock = NSLock()  // termination, and signals that must not outlive the pid
    private let waitLock = NSLock()
    private var termination: Termination?
    private var pendingOutput = [UInt8]()

    /// Starts `executable` with `arguments` and `environment` (by default the test process's).
    init(
        executable: String, arguments: [String], environment: [String: String]? = nil,
        standardError: StandardError = .pipe
    ) throws {
        guard let addCloseFrom = Self.addCloseFrom else {
            throw SpawnFailure(description: "posix_spawn_file_actions_addclosefrom_np is not in this C library")
        }
        let output = try Self.pipe()
        let error: (read: Int32, write: Int32)?
        do {
            error = standardError == .pipe ? try Self.pipe() : nil
        } catch let failure {
            close(output.read)
            close(output.write)
            throw failure
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        if let error {
            posix_spawn_file_actions_adddup2(&actions, error.write, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Descriptors the test process holds without close-on-exec (a test origin's listening
        // socket) must not live on in the child: a closed port would still accept connections.
        _ = addCloseFrom(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for entry in envp ?? [] { free(entry) } }
        var child = pid_t()
        let status =
            if var envp {
                posix_spawn(&child, executable, &actions, nil, argv, &envp)
            } else {
                posix_spawn(&child, executable, &actions, nil, argv, environ)
            }
        close(output.write)
        if let error { close(error.write) }
        guard status == 0 else {
            close(output.read)
            if let error { close(error.read) }
            throw SpawnFailure(description: "posix_spawn \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        outputDescriptor = output.read
        errorDescriptor = error?.read
    }

    deinit {
        close(outputDescriptor)
        if let errorDescriptor { close(errorDescriptor) }
    }

    /// A close-on-exec pipe, so that no other program the test process starts inherits it.
    /// Glibc's `pipe2` is not visible to Swift here, so the flag is set after `pipe`; children
    /// started here close every descriptor from 3 up anyway.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else {
            throw SpawnFailure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run
    /// time because the Glibc module does not declare it without `_GNU_SOURCE`.
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// The next line of standard output without its newline; what is left when the child closes
    /// its output without one ("" at end-of-file).
    func readLine() -> String {
        lock.withLock {
            while true {
                if let newline = pendingOutput.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pendingOutput[..<newline], as: UTF8.self)
                    pendingOutput.removeSubrange(...newline)
                    return line
                }
                let chunk = Self.readChunk(outputDescriptor)
                if chunk.isEmpty {
                    defer { pendingOutput.removeAll() }
                    return String(decoding: pendingOutput, as: UTF8.self)
                }
                pendingOutput += chunk
            }
        }
    }

    /// Everything the child writes to standard output and error until it closes them (both read
    /// at once, so a child that fills one pipe while the other is read cannot stall).
    func readToEnd() -> (output: Data, error: Data) {
        lock.withLock {
            var output = Data(pendingOutput)
            pendingOutput.removeAll()
            var error = Data()
            var open = [outputDescriptor] + (errorDescriptor.map { [$0] } ?? [])
            while !open.isEmpty {
                var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                guard poll(&polled, nfds_t(polled.count), -1) >= 0 else {
                    if errno == EINTR { continue }
                    break
                }
                for entry in polled where entry.revents != 0 {
                    let chunk = Self.readChunk(entry.fd)
                    if chunk.isEmpty {
                        open.removeAll { $0 == entry.fd }
                    } else if entry.fd == outputDescriptor {
                        output.append(contentsOf: chunk)
                    } else {
                        error.append(contentsOf: chunk)
                    }
                }
            }
            return (output, error)
        }
    }

    private static func readChunk(_ descriptor: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            return count > 0 ? Array(buffer.prefix(count)) : []
        }
    }

    /// Sends `signal` to the child unless it has already been reaped.
    func send(_ signal: Int32) {
        stateLock.withLock {
            if termination == nil { _ = kill(pid, signal) }
        }
    }

    /// Waits for the child to end (once; later calls return the same answer). It waits without
    /// reaping first, so a signal sent meanwhile can never reach a recycled process id.
    @discardableResult
    func waitForExit() -> Termination {
        waitLock.withLock {
            if let ended = stateLock.withLock({ termination }) { return ended }
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            return stateLock.withLock {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let ended: Termination =
                    status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
                termination = ended
                return ended
            }
        }
    }

    /// Kills the child with SIGKILL and reaps it, if it is still running.
    func killAndReap() {
        send(SIGKILL)
        waitForExit()
    }
}
