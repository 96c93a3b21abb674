import Foundation
import Testing

@testable import WebImage

@Suite("webimage cache")
struct CacheCommandTests {
    /// A cache directory holding two entries, and their total size on disk.
    private func filledDirectory() async throws -> (URL, Int) {
        let directory = try makeTemporaryDirectory()
        let cache = try ImageCache(directory: directory)
        let png = try ImageCodersManager.shared.encode(
            Image(bitmap: ImageBitmap(width: 4, height: 4, fill: .white), hasAlpha: false), as: .png, options: .init())
        try cache.storeImageDataToDisk(png, forKey: "https://example.com/a.png")
        try cache.storeImageDataToDisk(png + png, forKey: "https://example.com/b.png")
        return (directory, await cache.totalDiskSize())
    }

    @Test("info --json prints the path, the entry count and the bytes")
    func infoJSON() async throws {
        let (directory, bytes) = try await filledDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await CommandRunner.runOffPool(["cache", "info", "--cache-dir", directory.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let fields = try json(result.standardOutput)
        #expect(fields["path"] as? String == directory.path)
        #expect(fields["count"] as? Int == 2)
        #expect(fields["bytes"] as? Int == bytes)
        #expect(bytes > 0)
    }

    @Test("info prints text lines without --json")
    func infoText() async throws {
        let (directory, bytes) = try await filledDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await CommandRunner.runOffPool(["cache", "info", "--cache-dir", directory.path])
        #expect(result.status == 0)
        #expect(result.standardOutput == "path: \(directory.path)\ncount: 2\nbytes: \(bytes)\n")
    }

    @Test("clear removes every entry and says how much")
    func clear() async throws {
        let (directory, bytes) = try await filledDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await CommandRunner.runOffPool(["cache", "clear", "--cache-dir", directory.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let fields = try json(result.standardOutput)
        #expect(fields["removedCount"] as? Int == 2)
        #expect(fields["removedBytes"] as? Int == bytes)
        #expect(fields["count"] as? Int == 0)
        #expect(await (try ImageCache(directory: directory)).totalDiskCount() == 0)
    }

    @Test("trim keeps fresh entries by default and removes them with --max-age 0")
    func trim() async throws {
        let (directory, _) = try await filledDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = try await CommandRunner.runOffPool(["cache", "trim", "--cache-dir", directory.path, "--json"])
        #expect(kept.status == 0, "\(kept.standardError)")
        #expect(try json(kept.standardOutput)["removedCount"] as? Int == 0)
        let swept = try await CommandRunner.runOffPool([
            "cache", "trim", "--cache-dir", directory.path, "--max-age", "0", "--json",
        ])
        #expect(swept.status == 0, "\(swept.standardError)")
        let fields = try json(swept.standardOutput)
        #expect(fields["removedCount"] as? Int == 2)
        #expect(fields["count"] as? Int == 0)
    }

    @Test("trim --max-age takes a negative value, which never expires an entry")
    func trimNegativeAge() async throws {
        let (directory, _) = try await filledDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await CommandRunner.runOffPool([
            "cache", "trim", "--cache-dir", directory.path, "--max-age", "-1", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try json(result.standardOutput)["removedCount"] as? Int == 0)
    }

    @Test("a --cache-dir that is a file, or bad numbers, fail with one error line")
    func errors() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        for arguments in [
            ["cache", "info", "--cache-dir", file.path],
            ["cache", "trim", "--cache-dir", directory.path, "--max-size", "-1"],
            ["cache", "trim", "--cache-dir", directory.path, "--max-age", "nan"],
            ["cache", "info", "--cache-dir", ""],
        ] {
            let result = try await CommandRunner.runOffPool(arguments)
            #expect(result.status != 0, "\(arguments)")
            let lines = result.standardError.split(separator: "\n")
            #expect(
                lines.count == 1 && lines.first?.hasPrefix("error: ") == true, "\(arguments): \(result.standardError)")
        }
    }

    @Test("info on an empty directory reports zero")
    func empty() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await CommandRunner.runOffPool(["cache", "info", "--cache-dir", directory.path, "--json"])
        #expect(result.status == 0)
        let fields = try json(result.standardOutput)
        #expect(fields["count"] as? Int == 0 && fields["bytes"] as? Int == 0)
    }
}
