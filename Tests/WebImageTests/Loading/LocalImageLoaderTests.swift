import Foundation
import Testing

@testable import WebImage

/// The `file:` and `data:` loaders, the loaders manager's routing and the async adapters.
@Suite final class LocalImageLoaderTests {
    /// This test's own directory for the files it loads; removed when the test ends.
    private let directory = temporaryURL("webimage-loader")

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes `data` to `name` in this test's directory (replacing an earlier file of that name).
    private func temporaryFile(_ data: Data, name: String = "image.png") throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    @Test func fileLoaderDecodesAFileAndReportsItsSize() async throws {
        let bytes = try Fixtures.data("png/rgba8.png")
        let url = try temporaryFile(bytes)
        let progress = ProgressLog()
        let result = try await FileImageLoader().loadImage(with: url, options: [], context: nil) { event in
            if case .progress(let received, let expected) = event { progress.record(received, expected, url) }
        }
        #expect(result.isFinished)
        #expect(result.data == bytes)
        #expect(result.image.width == 11 && result.image.height == 7)
        #expect(result.image.format == .png)
        #expect(progress.entries.last?.received == bytes.count)
        #expect(progress.entries.last?.expected == bytes.count)
    }

    @Test func fileLoaderReportsAMissingFileAsAFileNotFoundFailureThatIsBlocked() async throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/a.png")
        let error = await loadError { () throws(WebImageError) in try await FileImageLoader().loadImage(with: url) }
        guard let failure = error?.transferFailure else {
            Issue.record("expected a transfer failure, got \(String(describing: error))")
            return
        }
        #expect(failure.kind == .fileNotFound)
        #expect(FileImageLoader().shouldBlockFailedURL(url, error: error!, options: [], context: nil))
    }

    @Test func fileLoaderRefusesADirectoryAndAFileAboveItsLimit() async throws {
        let url = try temporaryFile(Data(repeating: 7, count: 2048))
        let directoryError = await loadError { () throws(WebImageError) in
            try await FileImageLoader().loadImage(with: url.deletingLastPathComponent())
        }
        #expect(
            directoryError
                == .transferFailed(
                    TransferFailure(.cannotReadFile, "\(url.deletingLastPathComponent().path) is a directory")))
        let sizeError = await loadError { () throws(WebImageError) in
            try await FileImageLoader(maxFileSize: 1024).loadImage(with: url)
        }
        guard let failure = sizeError?.transferFailure else {
            Issue.record("expected a transfer failure, got \(String(describing: sizeError))")
            return
        }
        #expect(failure.kind == .responseTooLarge)
    }

    @Test func corruptAndEmptyFilesAreBadImageData() async throws {
        for bytes in [
            Data(), Data("not an image at all".utf8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]),
        ] {
            let url = try temporaryFile(bytes)
            let error = await loadError { () throws(WebImageError) in try await FileImageLoader().loadImage(with: url)
            }
            guard error?.code == .badImageData else {
                Issue.record("\(bytes.count) bytes: expected bad image data, got \(String(describing: error))")
                continue
            }
            #expect(FileImageLoader().shouldBlockFailedURL(url, error: error!, options: [], context: nil))
        }
    }

    @Test func fileLoaderAppliesTheContextsThumbnailSize() async throws {
        let url = try temporaryFile(try Fixtures.data("jpeg/photo_800x600.jpg"), name: "photo.jpg")
        var context = WebImageContext()
        context.imageThumbnailPixelSize = PixelSize(width: 200, height: 200)
        let result = try await FileImageLoader().loadImage(with: url, context: context)
        #expect(result.image.width == 200 && result.image.height == 150)
        #expect(result.image.isThumbnail)
    }

    @Test func dataURLLoaderDecodesBase64AndReportsTheMediaType() async throws {
        let bytes = try Fixtures.data("png/rgba8.png")
        let url = try #require(URL(string: "data:image/png;base64,\(bytes.base64EncodedString())"))
        let result = try await DataURLImageLoader().loadImage(with: url)
        #expect(result.data == bytes)
        #expect(result.metadata?.contentType == "image/png")
        #expect(result.image.width == 11 && result.image.height == 7)
    }

    @Test func dataURLParserHandlesPercentEscapesMissingPaddingAndDefaults() throws {
        let plain = try DataURL(parsing: "data:,a%20b%2C")
        #expect(plain.mediaType == "text/plain")
        #expect(plain.data == Data("a b,".utf8))
        let unpadded = try DataURL(parsing: "data:Image/GIF;charset=x;base64,R0lGODlh")
        #expect(unpadded.mediaType == "image/gif")
        #expect(unpadded.data == Data("GIF89a".utf8))
        let padless = try DataURL(parsing: "data:;base64,YQ")
        #expect(padless.data == Data("a".utf8))
    }

    @Test(arguments: ["data:image/png;base64", "data:;base64,@@@@", "data:,%zz", "data:,%4", "http://x/,y", "data"])
    func malformedDataURLsAreInvalidURLs(_ text: String) {
        #expect {
            _ = try DataURL(parsing: text)
        } throws: { error in
            guard (error as? WebImageError)?.code == .invalidURL else { return false }
            return true
        }
    }

    @Test func dataURLLargerThanTheLimitFailsWithoutDecoding() {
        let text = "data:;base64," + String(repeating: "QUFB", count: 1000)
        #expect(
            throws: WebImageError.transferFailed(
                TransferFailure(.responseTooLarge, "the data URL holds more than 100 bytes"))
        ) {
            _ = try DataURL(parsing: text, maxDataSize: 100)
        }
        #expect((try? DataURL(parsing: text, maxDataSize: 3000))?.data.count == 3000)
    }

    @Test func managerRoutesEachSchemeToTheNewestLoaderThatAcceptsIt() async throws {
        let recorder = RecordingLoader(scheme: "file")
        let manager = ImageLoadersManager(loaders: [FileImageLoader(), DataURLImageLoader()])
        let file = URL(fileURLWithPath: "/tmp/a.png")
        let data = try #require(URL(string: "data:,x"))
        #expect(manager.loader(for: file) is FileImageLoader)
        #expect(manager.loader(for: data) is DataURLImageLoader)
        manager.addLoader(recorder)
        #expect(manager.loader(for: file) is RecordingLoader)
        manager.removeLoaders(ofType: RecordingLoader.self)
        #expect(manager.loader(for: file) is FileImageLoader)
        #expect(manager.loaders.count == 2)
    }

    @Test func managerFailsAnUnhandledSchemeWithInvalidURLAndDoesNotBlockIt() async throws {
        let manager = ImageLoadersManager(loaders: [FileImageLoader()])
        let url = try #require(URL(string: "gopher://example.invalid/a.png"))
        #expect(!manager.canRequestImage(for: url, options: [], context: nil))
        let error = await loadError { () throws(WebImageError) in try await manager.loadImage(with: url) }
        guard let message = error?.message, error?.code == .invalidURL else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(message.contains("gopher"))
        #expect(!manager.shouldBlockFailedURL(url, error: error!, options: [], context: nil))
    }

    @Test func blocklistRuleFollowsSDWebImage() {
        #expect(ImageLoaderFailurePolicy.shouldBlock(.invalidURL("x")))
        #expect(ImageLoaderFailurePolicy.shouldBlock(.badImageData("x")))
        #expect(ImageLoaderFailurePolicy.shouldBlock(.transferFailed(TransferFailure(.tooManyRedirects, ""))))
        #expect(!ImageLoaderFailurePolicy.shouldBlock(.invalidDownloadStatusCode(404)))
        #expect(!ImageLoaderFailurePolicy.shouldBlock(.cancelled))
        for kind in [TransferFailure.Kind.cannotConnect, .cannotFindHost, .connectionLost, .timedOut] {
            #expect(!ImageLoaderFailurePolicy.shouldBlock(.transferFailed(TransferFailure(kind, ""))))
        }
    }

    @Test func cancellingTheTokenBeforeTheLoadEndsCallsBackOnceWithCancelled() async throws {
        let url = try temporaryFile(try Fixtures.data("jpeg/photo_800x600.jpg"), name: "p.jpg")
        let calls = ResultLog()
        // The load waits in its first progress report until the test has cancelled, so it can
        // never finish first however the threads are scheduled (it did under ThreadSanitizer).
        let cancelled = DispatchSemaphore(value: 0)
        let operation = FileImageLoader().requestImage(
            with: url, options: [], context: nil, progress: { _, _, _ in _ = cancelled.wait(timeout: .now() + 5) },
            completion: { calls.append($0) })
        operation.cancel()
        operation.cancel()
        cancelled.signal()
        #expect(operation.isCancelled)
        try await Task.sleep(for: .milliseconds(200))
        #expect(calls.count == 1)
        #expect(calls.errors == [.cancelled])
    }

    @Test func cancellingTheAwaitingTaskCancelsTheLoad() async throws {
        let loader = NeverFinishingLoader()
        let task = Task { () throws(WebImageError) -> ImageLoadResult in
            try await loader.loadImage(with: URL(fileURLWithPath: "/x"))
        }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let result = await task.result
        #expect(throws: WebImageError.cancelled) { try result.get() }
    }

    @Test func loadingReportsProgressThenReturnsTheFinalImage() async throws {
        let url = try temporaryFile(try Fixtures.data("png/rgba8.png"))
        let progress = ProgressLog()
        let partials = Locked(0)
        let finished = try await FileImageLoader().loadImage(with: url, options: [], context: nil) { event in
            switch event {
            case .progress(let received, let expected): progress.record(received, expected, url)
            case .partialImage: partials.withLock { $0 += 1 }
            }
        }
        #expect(!progress.entries.isEmpty)
        #expect(partials.withLock { $0 } == 0, "no partial images from a file")
        #expect(finished.image.width == 11)
    }
}

/// Records progress callbacks from any thread.
private final class ProgressLog: Sendable {
    private let storage = Locked<[(received: Int, expected: Int)]>([])
    var entries: [(received: Int, expected: Int)] { storage.withLock { $0 } }
    var record: ImageLoaderProgress {
        { received, expected, _ in self.storage.withLock { $0.append((received, expected)) } }
    }
}

private final class ResultLog: Sendable {
    private let storage = Locked<[Result<ImageLoadResult, WebImageError>]>([])
    func append(_ result: Result<ImageLoadResult, WebImageError>) { storage.withLock { $0.append(result) } }
    var count: Int { storage.withLock { $0.count } }
    var errors: [WebImageError] {
        storage.withLock { $0.compactMap(\.error) }
    }
}

private struct RecordingLoader: ImageLoading {
    let scheme: String
    func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool {
        url.scheme == scheme
    }
    func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        throw .invalidURL("recorded")
    }
}

/// A loader whose load only ends when it is cancelled.
private struct NeverFinishingLoader: ImageLoading {
    func canRequestImage(for url: URL, options: WebImageOptions, context: WebImageContext?) -> Bool { true }
    func loadImage(
        with url: URL, options: WebImageOptions, context: WebImageContext?, events: ImageLoadEventHandler?
    ) async throws(WebImageError) -> ImageLoadResult {
        do {
            try await Task.sleep(for: .seconds(3600))
        } catch {}
        throw .cancelled
    }
}
