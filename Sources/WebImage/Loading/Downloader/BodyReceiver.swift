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
    /// The bytes so far, in memory from the body pool (``BodyBufferPool``, below). Every chunk is
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

// MARK: The body pool

/// Memory for response bodies, recycled between downloads.
///
/// A downloaded body outlives its transfer: it waits for its callers (and, in the manager, for
/// the decode and the disk store) while the next transfers already run. With many bodies of
/// 100 KB and more freed in bursts, glibc's heap returns its free top to the kernel
/// (`madvise`) and the next bodies fault those pages back in. Freed body memory comes back
/// here instead, up to ``limit`` bytes, and the next body of that size class reuses it.
///
/// Sizes are rounded up to powers of two from 16 KiB; classes above 4 MiB are never kept.
final class BodyBufferPool: Sendable {
    /// The pool every downloader uses.
    static let shared = BodyBufferPool(limit: 8 << 20)

    static let smallestClassShift = 14
    static let largestPooledShift = 22

    /// At most this many bytes of unused memory are kept.
    let limit: Int
    private let free: Locked<FreeLists>

    init(limit: Int) {
        self.limit = limit
        free = Locked(FreeLists(classCount: Self.largestPooledShift - Self.smallestClassShift + 1))
    }

    /// Unused bytes held right now.
    var pooledBytes: Int { free.withLock { $0.bytes } }

    /// Storage of at least `byteCount` bytes: recycled memory of that class when there is some.
    func take(atLeast byteCount: Int) -> BodyStorage {
        let capacity = Self.capacity(for: byteCount)
        if let index = Self.classIndex(ofCapacity: capacity),
            let address = free.withLock({ $0.pop(index, capacity: capacity) }),
            let base = UnsafeMutableRawPointer(bitPattern: address)
        {
            return BodyStorage(base: base, capacity: capacity, pool: self)
        }
        let base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        return BodyStorage(base: base, capacity: capacity, pool: self)
    }

    /// Keeps `base` for reuse if its class is pooled and the pool has room; frees it otherwise.
    fileprivate func recycle(_ base: UnsafeMutableRawPointer, capacity: Int) {
        var kept = false
        if let index = Self.classIndex(ofCapacity: capacity) {
            let address = UInt(bitPattern: base)
            kept = free.withLock { $0.push(address, index, capacity: capacity, limit: limit) }
        }
        if !kept { base.deallocate() }
    }

    /// The power of two at or above `byteCount`, at least the smallest class.
    static func capacity(for byteCount: Int) -> Int {
        let wanted = max(byteCount, 1 << smallestClassShift)
        let shift = Int.bitWidth - (wanted - 1).leadingZeroBitCount
        return shift >= Int.bitWidth - 1 ? wanted : 1 << shift
    }

    private static func classIndex(ofCapacity capacity: Int) -> Int? {
        guard capacity.nonzeroBitCount == 1 else { return nil }
        let shift = capacity.trailingZeroBitCount
        guard shift >= smallestClassShift, shift <= largestPooledShift else { return nil }
        return shift - smallestClassShift
    }

    /// Addresses of unused buffers, one stack per class, the most recently freed on top (its
    /// pages are the likeliest to be in cache).
    private struct FreeLists {
        var stacks: [[UInt]]
        var bytes = 0

        init(classCount: Int) {
            stacks = Array(repeating: [], count: classCount)
        }

        mutating func pop(_ index: Int, capacity: Int) -> UInt? {
            guard let address = stacks[index].popLast() else { return nil }
            bytes -= capacity
            return address
        }

        mutating func push(_ address: UInt, _ index: Int, capacity: Int, limit: Int) -> Bool {
            guard bytes + capacity <= limit else { return false }
            stacks[index].append(address)
            bytes += capacity
            return true
        }
    }
}

/// One body's memory. Bytes are only ever appended: a `Data` made by ``data(count:)`` covers
/// bytes that are never written again, and keeps the storage alive until that `Data` is gone.
final class BodyStorage: @unchecked Sendable {
    // @unchecked: `base` is written only by the one receiver that owns this storage, and only
    // past every count it has handed out as `Data`; readers see only those earlier bytes.
    let base: UnsafeMutableRawPointer
    let capacity: Int
    private let pool: BodyBufferPool

    fileprivate init(base: UnsafeMutableRawPointer, capacity: Int, pool: BodyBufferPool) {
        self.base = base
        self.capacity = capacity
        self.pool = pool
    }

    deinit {
        pool.recycle(base, capacity: capacity)
    }

    /// Copies `bytes` to `offset`, which must be at or past every count handed out as `Data`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        precondition(offset >= 0 && offset + bytes.count <= capacity, "body write out of bounds")
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + offset).copyMemory(from: source, byteCount: bytes.count)
    }

    /// The first `count` bytes, without a copy; the storage lives as long as the `Data`.
    func data(count: Int) -> Data {
        precondition(count >= 0 && count <= capacity, "body count out of bounds")
        guard count > 0 else { return Data() }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
    }
}
