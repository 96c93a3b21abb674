import Foundation
import Testing

@testable import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `webimage` with `arguments` and returns its exit status and peak resident memory, from
/// the kernel's accounting of that one child (`wait4`), so other tests in this process cannot
/// blur the number.
private func runMeasuringPeakMemory(_ arguments: [String]) throws -> (status: Int32, peakBytes: Int) {
    let argv = ([CommandRunner.executable.path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, CommandRunner.executable.path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let exited = status & 0x7F == 0
    return (exited ? (status >> 8) & 0xFF : -1, usage.ru_maxrss * 1024)
}

@Suite("A hostile corpus made at test time")
struct HostileCorpusTests {
    /// Decoding any of these must stay under this much resident memory in a fresh process
    /// (the process itself takes about 30 MB).
    static let peakMemoryLimit = 160 << 20

    @Test("Each hostile input ends in a typed error or a sane image, in this process")
    func typedErrorOrImage() throws {
        for input in try HostileCorpus.inputs() {
            var options = ImageDecodeOptions()
            options.maxPixelCount = 16_000_000
            do {
                let image = try ImageCodersManager.shared.decode(input.data, options: options)
                #expect(image.width > 0 && image.height > 0, "\(input.name)")
                #expect(image.width * image.height <= options.maxPixelCount, "\(input.name)")
                #expect(image.bitmap.pixels.count == image.width * image.height * 4, "\(input.name)")
            } catch is WebImageError {
            } catch {
                Issue.record("\(input.name): untyped error \(error)")
            }
        }
    }

    @Test("The huge-size claims are refused before any allocation")
    func hugeClaimsAreRefused() throws {
        let inputs = try HostileCorpus.inputs()
        for name in [
            "png-100000x100000-tiny-idat", "gif-65535x65535-screen", "jpeg-65500x65500-sof", "webp-16384x16384-canvas",
        ] {
            let input = try #require(inputs.first { $0.name == name })
            #expect(throws: WebImageError.self, "\(name)") {
                try ImageCodersManager.shared.decode(input.data, options: ImageDecodeOptions())
            }
        }
    }

    @Test("Decoding and re-encoding each hostile input in a fresh process stays within bounded memory")
    func boundedMemoryInAChildProcess() async throws {
        let directory = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var outcomes: [(name: String, status: Int32, peak: Int)] = []
        for input in try HostileCorpus.inputs() {
            let file = directory.appendingPathComponent(input.name + ".bin")
            try input.data.write(to: file)
            let output = directory.appendingPathComponent(input.name + ".png").path
            let (status, peak) = try await withCheckedThrowingContinuation { continuation in
                // Off the cooperative pool: waiting for a child must not hold one of its threads.
                Thread {
                    continuation.resume(with: Result { try runMeasuringPeakMemory(["convert", file.path, output]) })
                }.start()
            }
            outcomes.append((input.name, status, peak))
        }
        for outcome in outcomes {
            // 0: a correct image was written; 1: one `error:` line. A crash is a signal (-1).
            #expect(outcome.status == 0 || outcome.status == 1, "\(outcome.name) exited \(outcome.status)")
            #expect(outcome.peak < Self.peakMemoryLimit, "\(outcome.name) peaked at \(outcome.peak >> 20) MiB")
        }
        #expect(outcomes.contains { $0.status == 0 } && outcomes.contains { $0.status == 1 })
    }
}
