import Foundation
import WebImage

/// One pass of the demo: every load in the list at once through the manager, counted.
struct DemoPass {
    var loads = 0
    var succeeded = 0
    var memoryHits = 0
    var diskHits = 0
    var httpRequests = 0
    var bytes = 0
    var seconds = 0.0
    /// The first image loaded for each URL index, nil where every load failed.
    var images: [Image?] = []
    /// One error message per failed URL index.
    var errors: [Int: String] = [:]

    static func run(manager: ImageManager, downloader: ImageDownloader, urls: [URL], loads: [Int]) async -> DemoPass {
        let before = downloader.statistics
        let start = ContinuousClock.now
        var pass = DemoPass(loads: loads.count, images: Array(repeating: nil, count: urls.count))
        await withTaskGroup(of: (Int, Result<ImageManagerResult, WebImageError>).self) { group in
            for index in loads {
                let url = urls[index]
                group.addTask { (index, await load(url, with: manager)) }
            }
            for await (index, outcome) in group {
                switch outcome {
                case .success(let result):
                    pass.succeeded += 1
                    if result.cacheType == .memory { pass.memoryHits += 1 }
                    if result.cacheType == .disk { pass.diskHits += 1 }
                    if pass.images[index] == nil { pass.images[index] = result.image }
                case .failure(let error):
                    pass.errors[index] = error.description
                }
            }
        }
        pass.seconds = ProgressDisplay.seconds(ContinuousClock.now - start)
        let after = downloader.statistics
        pass.httpRequests = after.requestCount - before.requestCount
        pass.bytes = after.receivedBytes - before.receivedBytes
        return pass
    }

    /// One load as a value (a child task returns it; errors are data here). A function, not a
    /// `do throws(WebImageError) { return (index, .success(...)) } catch { ... }` inside the child
    /// task's closure: Swift 6.3.1 miscompiles that shape in release builds (the tuple's index
    /// comes back as garbage on the success path), which crashed `swift run -c release webimage
    /// demo`.
    private static func load(_ url: URL, with manager: ImageManager) async -> Result<ImageManagerResult, WebImageError>
    {
        do {
            return .success(try await manager.loadImage(with: url))
        } catch {
            return .failure(error)
        }
    }

    func line(name: String) -> String {
        let failed = loads - succeeded
        return "\(name): \(loads) loads, \(succeeded) succeeded, \(failed) failed; "
            + "\(httpRequests) HTTP requests for \(loads) loads; \(memoryHits) memory hits, \(diskHits) disk hits; "
            + "\(ProgressDisplay.byteText(bytes)) downloaded; " + String(format: "%.2f s", seconds)
    }
}
