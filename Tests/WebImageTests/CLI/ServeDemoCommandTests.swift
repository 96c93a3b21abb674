import Foundation
import Testing
import WebImage

#if canImport(Glibc)
    import Glibc
#endif

/// `webimage serve --demo` in a real browser, and `--drain-delay`'s failing health check.
@Suite("webimage serve --demo and draining", .serialized)
struct ServeDemoCommandTests {
    static let browser = "/usr/bin/chromium-headless-shell"

    /// Where the gallery's screenshot is kept after the run (git-ignored).
    static var artifactDirectory: URL {
        Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("test-artifacts")
    }

    /// Runs headless Chromium on `url` with `flags`; its standard output.
    static func chromium(_ flags: [String], _ url: URL) async throws -> String {
        let arguments = ["--no-sandbox", "--disable-gpu", "--virtual-time-budget=30000"] + flags + [url.absoluteString]
        let child = try ChildProcess(executable: browser, arguments: arguments)
        let output = await onOwnThread { String(decoding: child.readToEnd().output, as: UTF8.self) }
        #expect(child.waitForExit() == .exited(0), "chromium \(flags)")
        return output
    }

    @Test func everyImageOfTheGalleryLoadsInHeadlessChromium() async throws {
        #expect(
            FileManager.default.isExecutableFile(atPath: Self.browser),
            "\(Self.browser) is missing: run scripts/bootstrap")
        // The gallery asks for all its images at once; on two busy cores (the other suites, other
        // builds) some waited past the default 10 s for a worker and got 503. What is checked here
        // is that each loads, not how fast: give the queue as long as the browser waits.
        let (server, base) = try await ServeCommandTests.start(["--demo", "--timeout", "60"])
        defer { server.killAndReap() }
        let page = base.appendingPathComponent("/")

        // The page counts the images that loaded once the browser's load event has fired.
        let dom = try await Self.chromium(["--dump-dom"], page)
        let status = try #require(
            dom.firstMatch(of: /(\d+) of (\d+) images loaded, (\d+) of (\d+) placeholders drawn/),
            "no status in: \(dom.prefix(400))")
        let loaded = Int(status.1)!
        let total = Int(status.2)!
        #expect(total >= 20)
        #expect(loaded == total)
        #expect(dom.components(separatedBy: "<img ").count - 1 == total)
        // Each BlurHash placeholder was fetched from /info and drawn by the page's own decoder.
        let drawn = Int(status.3)!
        let placeholders = Int(status.4)!
        #expect(placeholders == 2)
        #expect(drawn == placeholders)

        try FileManager.default.createDirectory(at: Self.artifactDirectory, withIntermediateDirectories: true)
        let screenshot = Self.artifactDirectory.appendingPathComponent("serve-demo-gallery.png")
        try? FileManager.default.removeItem(at: screenshot)
        _ = try await Self.chromium(
            ["--hide-scrollbars", "--window-size=1280,3600", "--screenshot=\(screenshot.path)"], page)
        let image = try ImageCodersManager.shared.decode(Data(contentsOf: screenshot), options: ImageDecodeOptions())
        #expect(image.width == 1280 && image.height == 3600)

        server.send(SIGTERM)
        #expect(await onOwnThread { server.waitForExit() } == .exited(0))
    }

    @Test func afterSIGTERMHealthAnswers503ForTheDrainDelayWhileImagesAreStillServed() async throws {
        let (server, base) = try await ServeCommandTests.start(["--demo", "--drain-delay", "3"])
        defer { server.killAndReap() }
        let port = try #require(base.port)
        #expect(await RawHTTP.get(port: port, "/health").statusCode == 200)
        let home = await RawHTTP.get(port: port, "/")
        let firstImage = try #require(
            String(decoding: home.body, as: UTF8.self).firstMatch(of: /<img src="([^"]+)"/)?.1)

        server.send(SIGTERM)
        let health = try await eventuallyValue { () -> RawResponse? in
            let response = await RawHTTP.get(port: port, "/health")
            return response.statusCode == 503 ? response : nil
        }
        #expect(String(decoding: health.body, as: UTF8.self) == "draining")
        #expect(await RawHTTP.get(port: port, String(firstImage)).statusCode == 200)
        #expect(await onOwnThread { server.waitForExit() } == .exited(0))
        #expect(await RawHTTP.connectError(port: port) == ECONNREFUSED)
    }
}

/// Polls `probe` every 50 ms for up to 5 s until it returns a value.
private func eventuallyValue<T>(_ probe: () async -> T?) async throws -> T {
    for _ in 0..<100 {
        if let value = await probe() { return value }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw ServeCommandTests.CommandFailureForTest(message: "no value within 5 s")
}
