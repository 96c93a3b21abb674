import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebImage

@testable import WebImageServer

/// Many clients at once over real loopback sockets, some hanging up mid-request.
///
/// It runs in an invocation of its own (`scripts/test` sets `WEBIMAGE_LOAD_TEST=1` for a second
/// `swift test --filter ImageServerLoadTests`), so that its hundreds of sockets and busy workers
/// do not share the machine with the timing of the other tests.
@Suite(
    "Image service under load", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["WEBIMAGE_LOAD_TEST"] == "1"))
struct ImageServerLoadTests {
    @Test func twoHundredClientsThatHangUpAtRandomLeaveNothingBehind() async throws {
        var configuration = ServiceConfiguration()
        configuration.allowsLoopbackSources = true
        try await withImageService(configuration) { service in
            try await withOrigin { origin in
                // 20 distinct results of 4 sources: coalesced runs, queued runs and cache hits mixed.
                let sources = [
                    "fixtures/jpeg/photo_800x600.jpg", "generated/320x240.png", "generated/256x192.webp",
                    "generated/200x160.gif",
                ]
                .map { Data(origin.url("/" + $0 + "?delay=20").absoluteString.utf8).base64URLEncodedWithoutPadding() }
                let widths = [16, 24, 32, 40, 48]
                try await ImageServer.application(service: service, host: "127.0.0.1", port: 0).test(.live) { client in
                    let port = try #require(client.port)
                    let downloader = ImageDownloader(config: ImageDownloaderConfig())
                    downloader.maxConcurrentDownloads = 200
                    var random = SplitMix64(seed: 42)
                    let outcomes = await withTaskGroup(of: (width: Int, data: Data?).self) { group in
                        for index in 0..<200 {
                            let width = widths[index % widths.count]
                            let source = sources[Int(random.next() % UInt64(sources.count))]
                            let url = URL(string: "http://127.0.0.1:\(port)/_/w:\(width)/\(source).png")!
                            let hangUpAfter = random.next() % 3 == 0 ? Int(random.next() % 40) : nil
                            group.addTask {
                                let request = Task { try await downloader.downloadData(with: url) }
                                if let hangUpAfter {
                                    try? await Task.sleep(for: .milliseconds(hangUpAfter))
                                    request.cancel()
                                }
                                return (width, try? await request.value)
                            }
                        }
                        return await group.reduce(into: []) { $0.append($1) }
                    }
                    let completed = outcomes.compactMap { outcome in outcome.data.map { (outcome.width, $0) } }
                    #expect(completed.count >= 100, "most clients stay: \(completed.count) completed")
                    #expect(completed.count < outcomes.count, "some clients hung up")
                    for (width, data) in completed {
                        let image = try ImageCodersManager.shared.decode(data, options: ImageDecodeOptions())
                        #expect(image.format == .png && image.width == width)
                    }
                    await downloader.shutdown()
                }
                #expect(await eventually { service.runs.count == 0 && origin.inFlightCount == 0 })
                #expect(service.processing.counts == (waiting: 0, running: 0))
                #expect(service.runs.liveSubscriptionCount == 0)
            }
        }
    }
}
