import Foundation
import Logging
import MetricsTestKit
import Testing

@testable import WebImage

/// The manager's logs and counters, captured through injected handlers (no global bootstrap).
@Suite struct ImageManagerTelemetryTests {
    typealias F = ManagerFixtures

    /// A manager like ``ManagerFixtures/make()`` whose three loggers and metrics go to `logs` and `metrics`.
    private func makeManager(logs: CapturedLogs, metrics: TestMetrics) throws -> (
        ImageManager, ScriptedLoader, ImageCache
    ) {
        let (plain, loader, cache, _) = try F.make()
        let telemetry = ManagerTelemetry(
            logger: logs.logger(WebImageLog.managerLabel), loaderLogger: logs.logger(WebImageLog.downloaderLabel),
            cacheLogger: logs.logger(WebImageLog.cacheLabel), metricsFactory: metrics)
        return (ImageManager(cache: plain.imageCache, loader: plain.imageLoader, telemetry: telemetry), loader, cache)
    }

    @Test func loadsHitsDownloadsAndFailuresAreCounted() async throws {
        let metrics = TestMetrics()
        let (manager, _, cache) = try makeManager(logs: CapturedLogs(), metrics: metrics)
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache)
        _ = try await manager.loadImage(with: F.pngURL)
        cache.clearMemory()
        _ = try await manager.loadImage(with: F.pngURL)
        _ = await loadError { () throws(WebImageError) in try await manager.loadImage(with: F.garbageURL) }
        _ = await loadError { () throws(WebImageError) in try await manager.loadImage(with: F.garbageURL) }

        #expect(metrics.counterTotal(label: ManagerTelemetry.loadsLabel) == 5)
        #expect(metrics.counterTotal(label: ManagerTelemetry.downloadsLabel) == 2)
        #expect(metrics.counterTotal(label: ManagerTelemetry.cacheHitsLabel, dimensions: [("type", "memory")]) == 1)
        #expect(metrics.counterTotal(label: ManagerTelemetry.cacheHitsLabel, dimensions: [("type", "disk")]) == 1)
        let badData = WebImageError.badImageData("").code
        let blackListed = WebImageError.blackListed("").code
        #expect(metrics.counterTotal(label: ManagerTelemetry.failuresLabel, dimensions: [("code", "\(badData)")]) == 1)
        #expect(
            metrics.counterTotal(label: ManagerTelemetry.failuresLabel, dimensions: [("code", "\(blackListed)")]) == 1)
    }

    @Test func loadsThatJoinARunningOneAreCountedAsCoalesced() async throws {
        let metrics = TestMetrics()
        let (manager, loader, _) = try makeManager(logs: CapturedLogs(), metrics: metrics)
        let url = try #require(URL(string: "test://origin/joined.jpg"))
        loader.respond(to: url, with: .delayed(try F.jpeg(), milliseconds: 1000))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { _ = try await manager.loadImage(with: url) } }
            try await group.waitForAll()
        }
        #expect(loader.requestCount(for: url) == 1)
        #expect(metrics.counterTotal(label: ManagerTelemetry.coalescedLabel) == 9)
        #expect(metrics.counterTotal(label: ManagerTelemetry.downloadsLabel) == 1)
        #expect(metrics.counterTotal(label: ManagerTelemetry.loadsLabel) == 10)
    }

    @Test func eachLoadIsLoggedAtDebugWithItsKeyAndCacheType() async throws {
        let logs = CapturedLogs()
        let (manager, _, _) = try makeManager(logs: logs, metrics: TestMetrics())
        _ = try await manager.loadImage(with: F.pngURL, options: .waitStoreCache)
        _ = try await manager.loadImage(with: F.pngURL)
        let finished = logs.entries.filter { $0.label == WebImageLog.managerLabel && $0.message == "load finished" }
        #expect(finished.count == 2)
        #expect(finished.allSatisfy { $0.level == .debug && $0.metadata["key"] == F.pngURL.absoluteString })
        #expect(finished.map { $0.metadata["cacheType"] } == ["none", "memory"])
        let loaderLines = logs.entries.filter { $0.label == WebImageLog.downloaderLabel }
        #expect(loaderLines.map(\.message) == ["load started", "load finished"])
    }

    @Test func credentialsInAURLNeverReachTheLog() async throws {
        let logs = CapturedLogs()
        let (manager, loader, _) = try makeManager(logs: logs, metrics: TestMetrics())
        let url = try #require(URL(string: "test://alice:hunter2@origin/private.png"))
        loader.respond(to: url, with: .data(try F.png()))
        _ = try await manager.loadImage(with: url)
        let missing = try #require(URL(string: "test://alice:hunter2@origin/missing.png"))
        _ = await loadError { () throws(WebImageError) in try await manager.loadImage(with: missing) }

        let lines = logs.entries.map(\.rendered)
        #expect(lines.count >= 6)
        #expect(lines.allSatisfy { !$0.contains("hunter2") && !$0.contains("alice") })
        #expect(lines.contains { $0.contains("test://origin/private.png") })
        #expect(lines.contains { $0.contains("test://origin/missing.png") })
    }

    @Test func urlsWithoutCredentialsAreLoggedUnchanged() throws {
        let url = try #require(URL(string: "https://example.com/a.png?size=2#x"))
        #expect(WebImageLog.redacted(url) == url.absoluteString)
        let withUser = try #require(URL(string: "https://bob@example.com/a.png"))
        #expect(WebImageLog.redacted(withUser) == "https://example.com/a.png")
        #expect(WebImageLog.redacted(key: "https://bob:pw@example.com/a-T.png") == "https://example.com/a-T.png")
        #expect(WebImageLog.redacted(key: "plain-key") == "plain-key")
    }

    @Test func errorMessagesDropEveryURLsUserInfoButKeepTheRest() {
        let error = WebImageError.invalidURL("https://bob:pw@example.com/a@2x.png and ftp://eve@h:21/x?u=a@b")
        #expect(error.message == "invalid URL: 'https://example.com/a@2x.png and ftp://h:21/x?u=a@b'")
        #expect(WebImageError.badImageData("mail me@example.com").message == "bad image data: mail me@example.com")
        #expect(
            WebImageError.diskCacheFailure("'s3://key:secret@bucket/k' failed", underlying: nil).message
                == "disk cache failure: 's3://bucket/k' failed")
    }
}

/// Every log record of the loggers it makes, at every level.
final class CapturedLogs: Sendable {
    struct Entry: Sendable {
        var label: String
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
        var rendered: String { "\(message) \(metadata.sorted { $0.key < $1.key })" }
    }

    private let storage = Locked<[Entry]>([])
    var entries: [Entry] { storage.withLock { $0 } }

    func logger(_ label: String) -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, logs: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ entry: Entry) { storage.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let label: String
        let logs: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            logs.append(
                Entry(
                    label: label, level: event.level, message: event.message.description,
                    metadata: merged.mapValues { "\($0)" }))
        }
    }
}
