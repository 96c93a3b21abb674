import Foundation
import Testing
import WebImage
import WebImageTestOrigin

/// `webimage prefetch` against the local origin.
@Suite("webimage prefetch", .serialized)
struct PrefetchCommandTests {
    @Test("500 URLs at concurrency 3: at most 3 in flight, all on disk, and a second run sends no request")
    func fiveHundredURLs() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let urls = (0..<500).map { origin.url("/generated/8x8.png?seed=\($0)&delay=2").absoluteString }
            let list = directory.appendingPathComponent("urls.txt")
            try ("# warm the cache\n" + urls.joined(separator: "\n") + "\n").write(
                to: list, atomically: true, encoding: .utf8)
            let cacheDirectory = directory.appendingPathComponent("cache").path
            let arguments = [
                "prefetch", "--input", list.path, "--cache-dir", cacheDirectory, "--concurrency", "3", "--json",
            ]
            let result = try await CommandRunner.runOffPool(arguments)
            try #require(result.status == 0, "\(result.standardError)")
            let fields = try json(result.standardOutput)
            #expect(fields["requested"] as? Int == 500)
            #expect(fields["finished"] as? Int == 500)
            #expect(fields["skipped"] as? Int == 0)
            #expect(fields["httpRequests"] as? Int == 500)
            #expect((fields["bytesDownloaded"] as? Int ?? 0) > 500 * 50)
            #expect((fields["errors"] as? [Any])?.isEmpty == true)
            #expect(origin.totalRequestCount == 500)
            #expect(origin.maxInFlightCount <= 3)
            #expect(result.standardError.contains("prefetch: 500/500"))

            let cache = try ImageCache(directory: URL(fileURLWithPath: cacheDirectory, isDirectory: true))
            var onDisk = 0
            for url in urls where await cache.containsImage(forKey: url, cacheType: .disk) == .disk { onDisk += 1 }
            #expect(onDisk == 500)

            let again = try await CommandRunner.runOffPool(arguments)
            try #require(again.status == 0, "\(again.standardError)")
            #expect(try json(again.standardOutput)["httpRequests"] as? Int == 0)
            #expect(origin.totalRequestCount == 500)

            // Then a cache-only fetch of the same URLs finds every one on disk.
            let fetch = try await CommandRunner.runOffPool([
                "fetch", "--input", list.path, "--cache-dir", cacheDirectory, "--options", "fromCacheOnly", "--json",
            ])
            try #require(fetch.status == 0, "\(fetch.standardError)")
            let fetched = try json(fetch.standardOutput)
            #expect(fetched["requested"] as? Int == 500)
            #expect(fetched["succeeded"] as? Int == 500)
            #expect(fetched["fromDisk"] as? Int == 500)
            #expect(fetched["httpRequests"] as? Int == 0)
            #expect(origin.totalRequestCount == 500)
        }
    }

    @Test("skipped URLs are listed, and the command fails with one error line")
    func skippedURLs() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let good = origin.url("/fixtures/png/rgba8.png").absoluteString
            let missing = origin.url("/fixtures/png/missing.png").absoluteString
            let result = try await CommandRunner.runOffPool([
                "prefetch", good, missing, "ftp://example.com/a.png", "--cache-dir", directory.path, "--json",
            ])
            #expect(result.status != 0)
            let errorLines = result.standardError.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            #expect(errorLines.count == 1, "stderr: \(result.standardError)")
            #expect(errorLines.first?.contains("2 of 3 URLs skipped") == true)
            let fields = try json(result.standardOutput)
            #expect(fields["requested"] as? Int == 3)
            #expect(fields["skipped"] as? Int == 2)
            let errors = try #require(fields["errors"] as? [[String: String]])
            #expect(Set(errors.compactMap { $0["url"] }) == [missing, "ftp://example.com/a.png"])
            #expect(errors.first { $0["url"] == missing }?["error"]?.contains("404") == true)
        }
    }

    @Test("text output names the counts")
    func textOutput() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try await CommandRunner.runOffPool([
                "prefetch", origin.url("/fixtures/jpeg/baseline.jpg").absoluteString, "--cache-dir", directory.path,
            ])
            try #require(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.hasPrefix("requested: 1\nfinished: 1\nskipped: 0\nhttpRequests: 1\n"))
        }
    }

    @Test(
        "bad arguments fail with one error line",
        arguments: [
            ["prefetch"], ["prefetch", "https://example.com/a.png", "--concurrency", "0"],
            ["prefetch", "https://example.com/a.png", "--concurrency", "-3"],
            ["prefetch", "--input", "/nonexistent/urls.txt"], ["prefetch", "--input", "/tmp"],
        ])
    func badArguments(arguments: [String]) async throws {
        let result = try await CommandRunner.runOffPool(arguments)
        #expect(result.status != 0)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("error: ") == true, "stderr: \(result.standardError)")
    }
}
