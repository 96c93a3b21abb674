import Foundation
import Testing

@testable import WebImage

/// A finished transfer hands its result out in passes: the callers attached now, then those
/// that joined meanwhile, until a pass finds none and the operation closes.
@Suite("Download operation hand-out")
struct DownloadOperationHandOutTests {
    private let url = URL(string: "http://127.0.0.1/hand-out.png")!

    private func makeOperation() -> DownloadOperation {
        DownloadOperation(url: url, key: url.absoluteString, options: [], context: nil) { _ in }
    }

    private func makeToken(_ operation: DownloadOperation, ended: Counter) -> ImageDownloadToken {
        ImageDownloadToken(
            url: url, operation: operation, decodeOptions: ImageDecodeOptions(), coder: ImageCodersManager.shared,
            responseHandler: nil, progress: nil, completion: { _ in ended.increment() })
    }

    @Test("Callers that join while results go out get the next pass; then the operation closes")
    func joinersGetTheNextPass() throws {
        let operation = makeOperation()
        let ended = Counter()
        let first = makeToken(operation, ended: ended)
        let second = makeToken(operation, ended: ended)
        #expect(operation.tryAdd(first) && operation.tryAdd(second))

        let pass1 = try #require(operation.takeUnservedTokensOrClose())
        #expect(pass1.map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))
        let joiner = makeToken(operation, ended: ended)
        #expect(operation.tryAdd(joiner))

        let pass2 = try #require(operation.takeUnservedTokensOrClose())
        #expect(pass2.map(ObjectIdentifier.init) == [ObjectIdentifier(joiner)])
        #expect(operation.takeUnservedTokensOrClose() == nil)
        #expect(!operation.tryAdd(makeToken(operation, ended: ended)))
    }

    @Test("A caller cancelled after it was handed out does not make a later joiner be skipped")
    func cancelDuringHandOutKeepsJoiners() throws {
        let operation = makeOperation()
        let ended = Counter()
        let first = makeToken(operation, ended: ended)
        let second = makeToken(operation, ended: ended)
        #expect(operation.tryAdd(first) && operation.tryAdd(second))

        _ = try #require(operation.takeUnservedTokensOrClose())
        // `first` is handed out but not yet served when its caller cancels; `joiner` arrives.
        first.cancel()
        #expect(ended.value == 1)
        let joiner = makeToken(operation, ended: ended)
        #expect(operation.tryAdd(joiner))

        let pass2 = try #require(operation.takeUnservedTokensOrClose())
        #expect(pass2.map(ObjectIdentifier.init) == [ObjectIdentifier(joiner)])
        #expect(operation.takeUnservedTokensOrClose() == nil)
    }
}
