import Foundation
import Testing
import WebImage
import WebImageTestOrigin

/// `webimage serve` as a process: it announces its port, serves, and drains on SIGTERM.
@Suite("webimage serve", .serialized)
struct ServeCommandTests {
    /// Starts `webimage serve` with `flags` and a free port; returns the process and its base URL.
    static func start(_ flags: [String]) async throws -> (ChildProcess, URL) {
        let process = try CommandRunner.start(["serve", "--port", "0"] + flags, standardError: .discarded)
        let line = await onOwnThread { process.readLine() }
        let prefix = "webimage serve: listening on "
        guard line.hasPrefix(prefix), let url = URL(string: String(line.dropFirst(prefix.count))) else {
            process.killAndReap()
            throw CommandFailureForTest(message: "serve did not announce its address: \(line)")
        }
        return (process, url)
    }

    struct CommandFailureForTest: Error { let message: String }

    @Test func sigtermFinishesTheRequestInFlightAndExitsZero() async throws {
        try await withOrigin { origin in
            let (process, base) = try await Self.start(["--allow-loopback-sources"])
            defer { process.killAndReap() }
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg?delay=1500").absoluteString
            let encoded = Data(source.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            let imageURL = base.appendingPathComponent("_/w:200/\(encoded).png")
            let downloader = ImageDownloader(config: ImageDownloaderConfig())
            let request = Task { try await downloader.downloadData(with: imageURL) }
            #expect(await eventually { origin.inFlightCount == 1 }, "the request reached the source")
            process.send(SIGTERM)
            let data = try await request.value
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            #expect(image.format == .png && image.width == 200 && image.height == 150)
            let termination = await onOwnThread { process.waitForExit() }
            #expect(termination == .exited(0))
            await downloader.shutdown()
        }
    }

    @Test func badFlagsFailWithOneErrorLine() async throws {
        for flags in [
            ["--key", "abcd"], ["--key", "zz", "--salt", "00"], ["--quality", "0"], ["--drain-delay", "-1"],
            ["--s3-bucket", "b"], ["--s3-endpoint", "ftp://127.0.0.1", "--s3-bucket", "b", "--s3-region", "r"],
            ["--s3-endpoint", "http://127.0.0.1:9", "--s3-region", "us-east-1"],
            // Numbers outside their stated ranges, NaN and the infinities included.
            ["--timeout", "1e308"], ["--timeout", "nan"], ["--timeout", "-inf"], ["--drain-delay", "inf"],
            ["--drain-delay", "1e308"], ["--port", "70000"], ["--port", "-1"], ["--quality", "1e308"],
            ["--workers", "-9223372036854775808"], ["--queue", "-1"], ["--max-source-bytes", "0"],
            ["--large-source-pixels", "-1"], ["--large-source-workers", "nan"],
        ] {
            let result = try await CommandRunner.runOffPool(
                ["serve", "--port", "0"] + flags, environment: CommandRunner.environment())
            #expect(result.status == 2, "\(flags): \(result.standardError)")
            #expect(result.standardError.hasPrefix("error: --"), "\(flags): \(result.standardError)")
        }
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["AWS_ACCESS_KEY_ID"] == nil,
            "AWS_ACCESS_KEY_ID is set in the tests' environment"))
    func anS3EndpointWithoutCredentialsFailsAtStartup() async throws {
        let result = try await CommandRunner.runOffPool([
            "serve", "--port", "0", "--s3-endpoint", "http://127.0.0.1:9", "--s3-bucket", "b", "--s3-region",
            "us-east-1",
        ])
        #expect(result.status != 0)
        #expect(result.standardError.hasPrefix("error: "))
        #expect(result.standardError.contains("AWS_ACCESS_KEY_ID"), "\(result.standardError)")
    }
}
