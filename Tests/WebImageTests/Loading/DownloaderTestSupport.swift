import Foundation
import WebImageTestOrigin

@testable import WebImage

/// An origin with the fixtures, a downloader of its own, and helpers to wait for results.
enum DownloaderTestSupport {
    /// Runs `body` with a fresh origin serving `Tests/Fixtures` (the shared ``withOrigin(_:)``)
    /// and a downloader made with `config`; the downloader is shut down first, then the origin.
    static func withOrigin<T>(
        config: ImageDownloaderConfig = .default,
        _ body: (TestOrigin, ImageDownloader) async throws -> T
    ) async throws -> T {
        try await WebImageTests.withOrigin { origin in
            try await shuttingDown(ImageDownloader(config: config), with: { await $0.shutdown() }) { downloader in
                try await body(origin, downloader)
            }
        }
    }

    /// Downloads `url` and waits for the terminal result.
    static func download(
        _ downloader: ImageDownloader, _ url: URL?, options: ImageDownloaderOptions = [],
        context: WebImageContext? = nil, progress: ImageLoaderProgress? = nil
    ) async -> Result<ImageLoadResult, WebImageError> {
        let recorder = ResultRecorder()
        _ = downloader.downloadImage(
            with: url, options: options, context: context, progress: progress, completion: recorder.completion)
        return await recorder.result()
    }

    /// A small fixture that decodes to 8×8 pixels... any valid PNG fixture.
    static let pngPath = "/fixtures/png/rgb8.png"
    static let jpegPath = "/fixtures/jpeg/photo_800x600.jpg"

    static func fixtureSize(_ relativePath: String) throws -> Int {
        try Fixtures.data(relativePath).count
    }
}

/// Collects one caller's callbacks: every partial result, the terminal one, and progress.
final class ResultRecorder: Sendable {
    private struct State {
        var partials: [ImageLoadResult] = []
        var terminal: Result<ImageLoadResult, WebImageError>?
        var terminalCount = 0
        var callsAfterTerminal = 0
        var progress: [(received: Int, expected: Int)] = []
        var waiters: [CheckedContinuation<Result<ImageLoadResult, WebImageError>, Never>] = []
    }

    private let state = Locked(State())

    var completion: ImageLoaderCompletion {
        { [self] result in
            let waiters = state.withLock {
                state -> [CheckedContinuation<Result<ImageLoadResult, WebImageError>, Never>] in
                if state.terminal != nil {
                    state.callsAfterTerminal += 1
                    return []
                }
                if case .success(let value) = result, !value.isFinished {
                    state.partials.append(value)
                    return []
                }
                state.terminal = result
                state.terminalCount += 1
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: result) }
        }
    }

    var progress: ImageLoaderProgress {
        { [self] received, expected, _ in
            state.withLock { $0.progress.append((received, expected)) }
        }
    }

    func result() async -> Result<ImageLoadResult, WebImageError> {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Result<ImageLoadResult, WebImageError>? in
                if let terminal = state.terminal { return terminal }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    var terminal: Result<ImageLoadResult, WebImageError>? { state.withLock { $0.terminal } }
    var partials: [ImageLoadResult] { state.withLock { $0.partials } }
    var progressReports: [(received: Int, expected: Int)] { state.withLock { $0.progress } }
    var callsAfterTerminal: Int { state.withLock { $0.callsAfterTerminal } }
    var terminalCount: Int { state.withLock { $0.terminalCount } }
}
