import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension HTTPTransfer {
    /// Checks the response head in SDWebImage's order — response modifier (2003), status (2001),
    /// content type (2004) — then streams the body under the size and pixel limits.
    func receive(
        _ response: HTTPClientResponse, from url: URL, validatorsSent: Bool, activity: IdleActivity?
    ) async throws -> (Data, ImageDownloadResponse) {
        let config = environment.config
        var headers = ImageDownloadHeaders()
        // The client already refused CR/LF in header fields, so none is dropped here.
        for header in response.headers { try? headers.add(name: header.name, value: header.value) }
        let retryAfter = response.headers.first(name: "Retry-After")
        var head = ImageDownloadResponse(url: url, statusCode: Int(response.status.code), headers: headers)
        if let modifier = context?.downloadResponseModifier ?? environment.responseModifier {
            guard let modified = await modifier.modifiedResponse(head) else {
                throw WebImageError.invalidDownloadResponse
            }
            head = modified
        }
        record.withLock { $0.response = head }
        work.send(.responseHead(head))
        // A 304 answers our validators, whatever the acceptable codes say.
        if head.statusCode == 304, validatorsSent { throw WebImageError.cacheNotModified }
        if let codes = config.acceptableStatusCodes, !codes.contains(head.statusCode) {
            throw AttemptFailure(error: .invalidDownloadStatusCode(head.statusCode), retryAfter: retryAfter)
        }
        if let types = config.acceptableContentTypes {
            let type = head.mimeType
            guard let type, types.contains(where: { $0.lowercased() == type }) else {
                throw WebImageError.invalidDownloadContentType(type)
            }
        }
        if head.statusCode == 304 { throw WebImageError.cacheNotModified }

        environment.events.emit(.receivedResponse(url: self.url, response: head))
        work.send(.response(head))

        let codings = ResponseInflater.codings(in: response.headers)
        guard codings.count <= ResponseInflater.maximumCodings else {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .badServerResponse,
                    "\(url.absoluteString): \(codings.count) content codings; at most \(ResponseInflater.maximumCodings) are undone"
                ))
        }
        let declared = ImageDownloadResponse(url: url, statusCode: 200, headers: headers).expectedContentLength
        // With a coding, Content-Length counts the coded bytes: the decoded size is unknown.
        let expected = codings.isEmpty ? declared : -1
        let maxSize = config.effectiveMaxResponseSize
        if declared > maxSize, codings.isEmpty {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .responseTooLarge, "\(url.absoluteString): \(declared) bytes declared; the limit is \(maxSize)"))
        }
        var receiver = BodyReceiver(
            work: work, expected: expected, maxSize: maxSize, url: url,
            sendsEveryChunk: options.contains(.progressiveLoad))
        receiver.reportProgress()
        let inflater = ResponseInflater(codings: codings, limit: maxSize)
        for try await chunk in response.body {
            activity?.touch()
            if let inflater {
                for part in try inflater.inflate(chunk) { try receiver.append(part) }
            } else {
                try receiver.append(chunk)
            }
        }
        try inflater?.finish()
        if expected >= 0, receiver.count < expected {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .connectionLost, "\(url.absoluteString): \(receiver.count) of \(expected) bytes arrived"))
        }
        receiver.reportFinalProgress()
        record.withLock { $0.metrics.receivedBytes = receiver.count }
        environment.statistics.countBytes(receiver.count)
        return (receiver.data, head)
    }
}

/// Collects a body under the size limit, and tells the transfer's subscribers how it grows:
/// progress on every chunk, and the bytes so far at doubling sizes (enough for a decode to read
/// the header and refuse an image too large) or, for a progressive download, on every chunk.
struct BodyReceiver {
    let work: ImageDownloader.Transfers.Work
    let expected: Int
    let maxSize: Int
    let url: URL
    let sendsEveryChunk: Bool
    /// The bytes so far, in memory from the body pool (see `BodyBufferPool`). Every chunk is
    /// copied in once; a declared length sizes the storage up front (up to 4 MiB), otherwise it
    /// doubles as bytes arrive. The final `Data` shares this storage.
    private var storage: BodyStorage?
    private(set) var count = 0
    /// The size at which the bytes so far go out next; none after 16 MiB.
    private var nextBytesEvent = 1

    init(work: ImageDownloader.Transfers.Work, expected: Int, maxSize: Int, url: URL, sendsEveryChunk: Bool) {
        self.work = work
        self.expected = expected
        self.maxSize = maxSize
        self.url = url
        self.sendsEveryChunk = sendsEveryChunk
    }

    /// The bytes received so far, as `Data` sharing the body's memory (no copy).
    var data: Data { storage?.data(count: count) ?? Data() }

    mutating func append(_ chunk: ByteBuffer) throws {
        guard chunk.readableBytes > 0 else { return }
        guard count + chunk.readableBytes <= maxSize else {
            throw WebImageError.transferFailed(
                TransferFailure(.responseTooLarge, "\(url.absoluteString): the body passed \(maxSize) bytes"))
        }
        reserve(count + chunk.readableBytes)
        chunk.withUnsafeReadableBytes { bytes in storage?.write(bytes, at: count) }
        count += chunk.readableBytes
        reportProgress()
        if sendsEveryChunk || (count >= nextBytesEvent && count <= 16 << 20) {
            nextBytesEvent = count * 2
            work.send(.bytes(data))
        }
    }

    /// Makes room for `needed` bytes: the declared length (capped) the first time, then at least
    /// double the storage, copying what has arrived.
    private mutating func reserve(_ needed: Int) {
        if let storage, storage.capacity >= needed { return }
        var wanted = needed
        if let storage {
            wanted = max(needed, storage.capacity * 2)
        } else if expected > needed {
            wanted = max(needed, min(expected, Self.largestUpFrontReservation))
        }
        let larger = BodyBufferPool.shared.take(atLeast: min(wanted, maxSize))
        if let storage, count > 0 {
            larger.write(UnsafeRawBufferPointer(start: storage.base, count: count), at: 0)
        }
        storage = larger
    }

    /// A declared length sizes the first storage only up to this: a server may lie about it.
    static let largestUpFrontReservation = 4 << 20

    func reportProgress() {
        work.send(.progress(received: count, expected: expected))
    }

    /// The last report carries every byte; with an unknown length it says so (expected = received).
    func reportFinalProgress() {
        work.send(.progress(received: count, expected: expected < 0 ? count : expected))
    }
}
