import Foundation
import Testing
import WebImage
import WebImageTestOrigin

/// `webimage serve` as a process: it announces its port, serves, and drains on SIGTERM.
@Suite("webimage serve", .serialized)
struct ServeCommandTests {
    /// Starts `webimage serve` with `flags` and a free port; returns the process and its base URL.
    static func start(_ flags: [String]) async throws -> (Process, URL) {
        let (process, out) = CommandRunner.process(["serve", "--port", "0"] + flags)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = await onOwnThread { () -> String in
            var text = ""
            while !text.contains("\n") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let prefix = "webimage serve: listening on "
        guard let announced = line.split(separator: "\n").first, announced.hasPrefix(prefix),
            let url = URL(string: String(announced.dropFirst(prefix.count)))
        else {
            process.terminate()
            throw CommandFailureForTest(message: "serve did not announce its address: \(line)")
        }
        return (process, url)
    }

    struct CommandFailureForTest: Error { let message: String }

    @Test func sigtermFinishesTheRequestInFlightAndExitsZero() async throws {
        try await withOrigin { origin in
            let (process, base) = try await Self.start(["--allow-loopback-sources"])
            defer { if process.isRunning { process.terminate() } }
            let source = origin.url("/fixtures/jpeg/photo_800x600.jpg?delay=1500").absoluteString
            let encoded = Data(source.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            let imageURL = base.appendingPathComponent("_/w:200/\(encoded).png")
            let downloader = ImageDownloader(config: ImageDownloaderConfig())
            let request = Task { try await downloader.downloadData(with: imageURL) }
            #expect(await eventually { origin.inFlightCount == 1 }, "the request reached the source")
            kill(process.processIdentifier, SIGTERM)
            let data = try await request.value
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            #expect(image.format == .png && image.width == 200 && image.height == 150)
            let status = await onOwnThread { () -> Int32 in
                process.waitUntilExit()
                return process.terminationStatus
            }
            #expect(status == 0)
            await downloader.shutdown()
        }
    }

    @Test func badFlagsFailWithOneErrorLine() async throws {
        for flags in [["--key", "abcd"], ["--key", "zz", "--salt", "00"], ["--quality", "0"]] {
            let result = try await CommandRunner.runOffPool(["serve", "--port", "0"] + flags)
            #expect(result.status != 0)
            #expect(result.standardError.hasPrefix("error: "), "\(flags): \(result.standardError)")
        }
    }
}
