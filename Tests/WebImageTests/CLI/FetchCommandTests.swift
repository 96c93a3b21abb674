import Foundation
import Testing
import WebImage
import WebImageTestOrigin

/// `webimage fetch` against the local origin.
@Suite("webimage fetch", .serialized)
struct FetchCommandTests {
    private func errorLines(_ result: CommandRunner.Result) -> [Substring] {
        result.standardError.split(separator: "\n").filter { $0.hasPrefix("error: ") }
    }

    @Test("a cold fetch downloads each URL once and writes files; a warm one sends no request and reads disk")
    func coldThenWarm() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let urls = [
                origin.url("/fixtures/png/rgba8.png").absoluteString,
                origin.url("/fixtures/jpeg/baseline.jpg").absoluteString,
                origin.url("/generated/40x30.webp?seed=1").absoluteString,
                origin.url("/generated/40x30.webp?seed=2").absoluteString,
            ]
            let cache = directory.appendingPathComponent("cache").path
            let out = directory.appendingPathComponent("out").path
            let cold = try await CommandRunner.runOffPool(
                ["fetch"] + urls + ["--cache-dir", cache, "--out", out, "--json"])
            try #require(cold.status == 0, "\(cold.standardError)")
            let coldFields = try json(cold.standardOutput)
            #expect(coldFields["requested"] as? Int == 4)
            #expect(coldFields["succeeded"] as? Int == 4)
            #expect(coldFields["failed"] as? Int == 0)
            #expect(coldFields["fromNetwork"] as? Int == 4)
            #expect(coldFields["httpRequests"] as? Int == 4)
            #expect((coldFields["bytesDownloaded"] as? Int ?? 0) > 0)
            #expect(origin.totalRequestCount == 4)
            let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(files == ["40x30-2.webp", "40x30.webp", "baseline.jpg", "rgba8.png"])
            let written = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("rgba8.png"))
            #expect(try ImageCodersManager.shared.imageInfo(for: written).width > 0)

            let warm = try await CommandRunner.runOffPool(["fetch"] + urls + ["--cache-dir", cache, "--json"])
            try #require(warm.status == 0, "\(warm.standardError)")
            let warmFields = try json(warm.standardOutput)
            #expect(warmFields["succeeded"] as? Int == 4)
            #expect(warmFields["fromDisk"] as? Int == 4)
            #expect(warmFields["httpRequests"] as? Int == 0)
            #expect(warmFields["bytesDownloaded"] as? Int == 0)
            #expect(origin.totalRequestCount == 4)
        }
    }

    @Test("a thumbnail and transform write PNG files of the asked size")
    func thumbnailAndTransform() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let out = directory.appendingPathComponent("out")
            let result = try await CommandRunner.runOffPool([
                "fetch", origin.url("/generated/200x100.png?seed=3").absoluteString, "--cache-dir",
                directory.appendingPathComponent("cache").path, "--out", out.path, "--resize", "20x10", "--flip",
                "horizontal",
            ])
            try #require(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("succeeded: 1\n"))
            let data = try Data(contentsOf: out.appendingPathComponent("200x100.png"))
            let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
            #expect(image.width == 20 && image.height == 10)
        }
    }

    @Test("failures make the exit status non-zero and each one is listed")
    func failuresListed() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let good = origin.url("/fixtures/png/rgba8.png").absoluteString
            let missing = origin.url("/fixtures/png/missing.png").absoluteString
            let garbage = origin.url("/garbage/300").absoluteString
            let result = try await CommandRunner.runOffPool([
                "fetch", good, missing, garbage, "ftp://example.com/a.png", "--cache-dir", directory.path, "--json",
            ])
            #expect(result.status != 0)
            #expect(errorLines(result).count == 1, "stderr: \(result.standardError)")
            #expect(errorLines(result).first?.contains("3 of 4 URLs failed") == true)
            let fields = try json(result.standardOutput)
            #expect(fields["succeeded"] as? Int == 1)
            #expect(fields["failed"] as? Int == 3)
            let errors = try #require(fields["errors"] as? [[String: String]])
            #expect(Set(errors.compactMap { $0["url"] }) == [missing, garbage, "ftp://example.com/a.png"])
            #expect(errors.first { $0["url"] == missing }?["error"]?.contains("404") == true)

            let text = try await CommandRunner.runOffPool(["fetch", good, missing, "--cache-dir", directory.path])
            #expect(text.status != 0)
            #expect(text.standardOutput.contains("failed \(missing): "))
        }
    }

    @Test("--options fromCacheOnly with an empty cache fails cleanly without a request")
    func fromCacheOnlyEmptyCache() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let url = origin.url("/fixtures/png/rgba8.png").absoluteString
            let result = try await CommandRunner.runOffPool([
                "fetch", url, "--cache-dir", directory.path, "--options", "fromCacheOnly", "--json",
            ])
            #expect(result.status != 0)
            #expect(errorLines(result).count == 1, "stderr: \(result.standardError)")
            let fields = try json(result.standardOutput)
            #expect(fields["failed"] as? Int == 1)
            #expect(fields["httpRequests"] as? Int == 0)
            #expect(origin.totalRequestCount == 0)
        }
    }

    @Test("Prefetch 500 URLs at concurrency 3, then fetch them fromCacheOnly with no request")
    func prefetchThenFetchFromCache() async throws {
        try await withOrigin { origin in
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let urls = (0..<500).map { origin.url("/generated/8x8.png?seed=\($0)").absoluteString }
            let list = directory.appendingPathComponent("urls.txt")
            try (urls.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
            let cache = directory.appendingPathComponent("cache").path
            let prefetch = try await CommandRunner.runOffPool([
                "prefetch", "--input", list.path, "--cache-dir", cache, "--concurrency", "3", "--json",
            ])
            try #require(prefetch.status == 0, "\(prefetch.standardError)")
            #expect(origin.maxInFlightCount <= 3)
            #expect(origin.totalRequestCount == 500)

            let fetch = try await CommandRunner.runOffPool([
                "fetch", "--input", list.path, "--cache-dir", cache, "--options", "fromCacheOnly", "--json",
            ])
            try #require(fetch.status == 0, "\(fetch.standardError)")
            let fields = try json(fetch.standardOutput)
            #expect(fields["succeeded"] as? Int == 500)
            #expect(fields["fromDisk"] as? Int == 500)
            #expect(fields["httpRequests"] as? Int == 0)
            #expect(origin.totalRequestCount == 500)
        }
    }

    @Test(
        "bad flags fail with one error line",
        arguments: [
            ["fetch"], ["fetch", "https://example.com/a.png", "--concurrency", "0"],
            ["fetch", "https://example.com/a.png", "--options", "fromCacheOnly,noSuchOption"],
            ["fetch", "https://example.com/a.png", "--thumbnail", "0x10"],
            ["fetch", "https://example.com/a.png", "--resize", "banana"],
            ["fetch", "--input", "/nonexistent/urls.txt"], ["fetch", "https://example.com/a.png", "--bogus"],
            ["demo", "--out", ""],
        ])
    func badFlags(arguments: [String]) async throws {
        let result = try await CommandRunner.runOffPool(arguments)
        #expect(result.status != 0)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("error: ") == true, "stderr: \(result.standardError)")
    }

    @Test("an unknown option name lists the valid names")
    func unknownOptionListsNames() async throws {
        let result = try await CommandRunner.runOffPool(["fetch", "https://example.com/a.png", "--options", "fast"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("'fast'"))
        #expect(result.standardError.contains("retryFailed") && result.standardError.contains("fromCacheOnly"))
    }
}
