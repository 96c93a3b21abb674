import Foundation
import NIOCore

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
