import Foundation
import Testing

@testable import WebImage

/// A transfer is shared only while it runs: once it ends, the operation closes and the next
/// caller of the URL gets a new transfer (a finished SDWebImage operation is never joined).
@Suite("Download operation closing")
struct DownloadOperationClosingTests {
    typealias Support = DownloaderTestSupport

    @Test("Once closed, an operation hands its callers over once and takes no new ones")
    func closedOperationRefusesCallers() {
        let url = URL(string: "http://127.0.0.1/closing.png")!
        let operation = DownloadOperation(url: url, key: url.absoluteString, options: [], context: nil) { _ in }
        let ended = Counter()
        let makeToken = {
            ImageDownloadToken(
                url: url, operation: operation, decodeOptions: ImageDecodeOptions(),
                coder: ImageCodersManager.shared, responseHandler: nil, progress: nil,
                completion: { _ in ended.increment() })
        }
        let first = makeToken()
        let second = makeToken()
        #expect(operation.tryAdd(first) && operation.tryAdd(second))

        let taken = operation.closeAndTakeTokens()
        #expect(taken.map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))
        #expect(!operation.tryAdd(makeToken()))
        #expect(operation.closeAndTakeTokens().isEmpty)
        // A caller cancelled while results go out ends once, with `cancelled`.
        first.cancel()
        first.cancel()
        #expect(ended.value == 1)
    }

    @Test("A download asked for as soon as the previous one of the same URL returned is a new transfer")
    func backToBackDownloadsAreFresh() async throws {
        try await Support.withOrigin { origin, downloader in
            let url = origin.url(Support.pngPath)
            for round in 1...20 {
                #expect(await Support.download(downloader, url).value != nil)
                #expect(origin.requestCount(path: Support.pngPath) == round)
            }
        }
    }
}
