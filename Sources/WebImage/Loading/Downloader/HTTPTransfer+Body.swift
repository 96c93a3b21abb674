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
    ) async throws -> DownloadedBody {
        let config = environment.config
        var headers = ImageDownloadHeaders()
        // The client already refused CR/LF in header fields, so none is dropped here.
        for header in response.headers { try? headers.add(name: header.name, value: header.value) }
        let retryAfter = response.headers.first(name: "Retry-After")
        var head = ImageDownloadResponse(url: url, statusCode: Int(response.status.code), headers: headers)
        if let modifier = operation.context?.downloadResponseModifier ?? environment.responseModifier {
            guard let modified = await modifier.modifiedResponse(head) else {
                throw WebImageError.invalidDownloadResponse
            }
            head = modified
        }
        operation.updateSnapshot { $0.response = head }
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

        environment.events.emit(.receivedResponse(url: operation.url, response: head))
        for token in operation.tokens { token.responseHandler?(head) }

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
            operation: operation, expected: expected, maxSize: maxSize, url: url,
            progressInterval: config.effectiveProgressInterval,
            progressive: progressiveDriver())
        receiver.reportProgress()
        do {
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
        } catch {
            await receiver.close()
            throw error
        }
        await receiver.close()
        if expected >= 0, receiver.count < expected {
            throw WebImageError.transferFailed(
                TransferFailure(
                    .connectionLost, "\(url.absoluteString): \(receiver.count) of \(expected) bytes arrived"))
        }
        receiver.reportFinalProgress()
        operation.updateSnapshot { $0.metrics.receivedBytes = receiver.count }
        environment.statistics.countBytes(receiver.count)
        return DownloadedBody(data: receiver.data, response: head)
    }

    /// A progressive decoder when the first caller asked for partial images, no decryptor is
    /// set and its coder can decode incrementally.
    private func progressiveDriver() -> ProgressiveDecodeDriver? {
        guard options.contains(.progressiveLoad),
            operation.context?.downloadDecryptor == nil, environment.decryptor == nil,
            let first = operation.tokens.first,
            let coder = first.coder as? any ProgressiveImageCoding
        else { return nil }
        return ProgressiveDecodeDriver(coder: coder, options: first.decodeOptions)
    }
}

/// Collects a body: size limit, progress, the early pixel-limit check and partial decodes.
struct BodyReceiver {
    let operation: DownloadOperation
    let expected: Int
    let maxSize: Int
    let url: URL
    let progressInterval: TimeInterval
    let progressive: ProgressiveDecodeDriver?
    /// The bytes so far, in memory from the body pool (see `BodyBufferPool`). Every chunk is
    /// copied in once; a declared length sizes the storage up front (up to 4 MiB), otherwise it
    /// doubles as bytes arrive. The final `Data` shares this storage.
    private var storage: BodyStorage?
    private(set) var count = 0
    /// The header check runs at doubling sizes until the header parses (or 16 MiB pass).
    private var nextPixelCheck = 1
    private var pixelCheckDone = false

    init(
        operation: DownloadOperation, expected: Int, maxSize: Int, url: URL, progressInterval: TimeInterval,
        progressive: ProgressiveDecodeDriver?
    ) {
        self.operation = operation
        self.expected = expected
        self.maxSize = maxSize
        self.url = url
        self.progressInterval = progressInterval
        self.progressive = progressive
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
        try checkPixelLimit()
        progressive?.offer(data, to: operation)
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
        guard operation.isProgressObserved else { return }
        for token in operation.tokens {
            token.reportProgress(received: count, expected: expected, interval: progressInterval)
        }
    }

    /// The last report carries every byte; with an unknown length it says so (expected = received).
    func reportFinalProgress() {
        guard operation.isProgressObserved else { return }
        for token in operation.tokens {
            token.reportProgress(received: count, expected: expected < 0 ? count : expected, interval: 0)
        }
    }

    func close() async {
        await progressive?.close()
    }

    /// Fails as soon as the header shows more pixels than every caller allows — unless one of
    /// them asked for a thumbnail or a scale-down, which decode such images within bounds.
    private mutating func checkPixelLimit() throws {
        guard !pixelCheckDone, count >= nextPixelCheck else { return }
        nextPixelCheck = count * 2
        let tokens = operation.tokens
        // Callers that only want the bytes never need the check.
        guard let coder = tokens.first(where: { $0.dataSink == nil })?.coder else { return }
        guard let info = try? coder.imageInfo(for: data) else {
            if count > 16 << 20 { pixelCheckDone = true }
            return
        }
        pixelCheckDone = true
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        var largestLimit = 0
        for token in tokens {
            let options = token.decodeOptions
            // Callers that want the bytes, a thumbnail or a scale-down can live with a big image.
            guard token.dataSink == nil, options.thumbnailPixelSize == .zero, options.scaleDownLimitBytes == nil,
                overflow || pixels > options.maxPixelCount
            else { return }
            largestLimit = max(largestLimit, options.maxPixelCount)
        }
        throw WebImageError.imageTooLarge(width: info.width, height: info.height, limit: largestLimit)
    }
}
