import Dispatch
import Foundation
import Testing

@testable import WebImage

/// A loader that serves scripted responses for `test:` URLs and counts requests.
final class ScriptedLoader: ImageLoading {
    enum Response: Sendable {
        /// Decode these bytes (optionally after emitting a partial image first).
        case data(Data, partial: Bool = false)
        case failure(WebImageError)
        /// Never finishes until cancelled.
        case hang
        /// Decodes these bytes after a pause, so concurrent loads overlap.
        case delayed(Data, milliseconds: Int)
    }

    private struct State {
        var responses: [URL: Response] = [:]
        var requests: [URL: Int] = [:]
        var contexts: [WebImageContext] = []
        var priorities: [TaskPriority] = []
        var cancellations: [URL: Int] = [:]
    }
    private let state = Locked(State())

    func respond(to url: URL, with response: Response) { state.withLock { $0.responses[url] = response } }
    func requestCount(for url: URL) -> Int { state.withLock { $0.requests[url] ?? 0 } }
    var totalRequests: Int { state.withLock { $0.requests.values.reduce(0, +) } }
    var lastContext: WebImageContext? { state.withLock { $0.contexts.last } }
    /// The priority of the task each request was made from.
    var requestPriorities: [TaskPriority] { state.withLock { $0.priorities } }

    func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        url.scheme == "test"
    }

    func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        var response = state.withLock { state -> Response? in
            state.requests[url, default: 0] += 1
            state.contexts.append(context ?? WebImageContext())
            state.priorities.append(Task.currentPriority)
            return state.responses[url]
        }
        if case .delayed(let data, let milliseconds)? = response {
            try await sleep(for: .milliseconds(milliseconds), url: url)
            response = .data(data)
        }
        switch response {
        case .data(let data, let partial)?:
            events?(.progress(receivedSize: data.count, expectedSize: data.count))
            let image = try ImageLoaderDecoding.decode(data, url: url, options: options, context: context)
            if partial {
                var incremental = image
                incremental.isIncremental = true
                events?(.partialImage(incremental))
            }
            return ImageLoadResult(image: image, data: data, isFinished: true)
        case .failure(let error)?:
            throw error
        case .hang?, .delayed?:
            try await sleep(for: .seconds(3600), url: url)
            throw .cancelled
        case nil:
            throw .invalidDownloadStatusCode(404)
        }
    }

    /// Loads that ended because their task was cancelled, per URL.
    func cancellationCount(for url: URL) -> Int { state.withLock { $0.cancellations[url] ?? 0 } }

    private func sleep(for duration: Duration, url: URL) async throws(WebImageError) {
        do {
            try await Task.sleep(for: duration)
        } catch {
            state.withLock { $0.cancellations[url, default: 0] += 1 }
            throw .cancelled
        }
    }
}

/// Records the callback API's calls.
final class CompletionLog: Sendable {
    struct Call: Sendable {
        var image: Image?
        var data: Data?
        var error: WebImageError?
        var cacheType: ImageCacheType
        var finished: Bool
        var onQueue: Bool
    }
    private let calls = Locked<[Call]>([])
    private let finishedCount = Locked(0)
    static let queueKey = DispatchSpecificKey<String>()

    var completion: ImageManagerCompletion {
        { image, data, error, cacheType, finished, _ in
            let onQueue = DispatchQueue.getSpecific(key: Self.queueKey) != nil
            self.calls.withLock {
                $0.append(
                    Call(
                        image: image, data: data, error: error, cacheType: cacheType, finished: finished,
                        onQueue: onQueue))
            }
        }
    }
    var all: [Call] { calls.withLock { $0 } }

    /// Waits (polling, as long as ``eventually(timeout:_:)`` does) until `count` calls with
    /// finished == true arrived.
    func waitForFinished(_ count: Int = 1) async throws {
        if await eventually({ all.filter(\.finished).count >= count }) { return }
        Issue.record("timed out waiting for \(count) finished calls; got \(all.count) calls")
    }
}

enum ManagerFixtures {
    static let jpegURL = URL(string: "test://origin/photo.jpg")!
    static let pngURL = URL(string: "test://origin/rgba.png")!
    static let garbageURL = URL(string: "test://origin/garbage.jpg")!

    static func jpeg() throws -> Data { try Fixtures.data("jpeg/photo_800x600.jpg") }
    static func png() throws -> Data { try Fixtures.data("png/rgba8.png") }

    /// A manager over a memory cache and a fake disk, with a scripted loader serving the fixtures.
    static func make() throws -> (ImageManager, ScriptedLoader, ImageCache, FakeDiskCache) {
        let loader = ScriptedLoader()
        loader.respond(to: jpegURL, with: .data(try jpeg()))
        loader.respond(to: pngURL, with: .data(try png()))
        loader.respond(to: garbageURL, with: .data(Data("garbage".utf8)))
        let disk = FakeDiskCache()
        let cache = ImageCache(memoryCache: MemoryCache(), diskCache: disk)
        return (ImageManager(cache: cache, loader: loader), loader, cache, disk)
    }
}
