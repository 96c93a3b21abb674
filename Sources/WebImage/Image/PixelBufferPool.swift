import Synchronization

/// Pixel arrays of decoded bitmaps, recycled between decodes.
///
/// A decoded image outlives its decode: it waits for its disk store and its callers while the
/// next images are already decoded. When such bitmaps of a megabyte and more are freed in
/// bursts, glibc's heap returns its free top to the kernel (`madvise`), and the next decode
/// faults every page of its new bitmap back in (hundreds per image). A bitmap that the library
/// allocated gives its array back here when its last copy goes away, up to ``byteLimit``
/// bytes, and the next decode of a similar size writes into it instead.
///
/// The first array of each new largest size is let go rather than kept. Freeing a large block
/// is what raises glibc's dynamic `mmap` and trim thresholds (to the block's size and twice
/// that); if the pool kept every bitmap, they would stay at 128 KiB, and every other allocation
/// above that (response bodies, `Data` copies) would be trimmed and faulted in again each time.
///
/// Only arrays of ``minimumByteCount`` bytes or more are kept. An array that someone still
/// holds (a `pixels` value copied out of the bitmap) is never written: copy on write gives the
/// decoder a fresh array, and the pool lets the shared one go.
final class PixelBufferPool: Sendable {
    /// The pool every bitmap the library allocates uses.
    static let shared = PixelBufferPool(byteLimit: 16 << 20)

    /// Smaller arrays come and go through malloc's own free lists cheaply.
    static let minimumByteCount = 256 << 10

    /// glibc raises its thresholds for freed blocks up to 32 MiB (`DEFAULT_MMAP_THRESHOLD_MAX`).
    static let largestThresholdRaise = 32 << 20

    /// At most this many bytes of unused arrays are kept.
    let byteLimit: Int
    private let free: Locked<FreeArrays>

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
        free = Locked(FreeArrays())
    }

    /// Unused bytes held right now.
    var pooledBytes: Int { free.withLock { $0.bytes } }

    /// `count` bytes written by `body`: a kept array when one fits, else a new one. An array
    /// whose `body` throws goes back to the pool.
    func pixels<Failure: Error>(
        count: Int, writtenBy body: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) -> [UInt8] {
        if var recycled = take(count: count) {
            do {
                try recycled.withUnsafeMutableBufferPointer { buffer throws(Failure) in try body(buffer) }
            } catch {
                recycle(recycled)
                throw error
            }
            return recycled
        }
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized throws(Failure) in
            HugePageAdvice.advise(buffer)
            try body(buffer)
            initialized = count
        }
    }

    /// A kept array whose capacity fits `count` bytes without wasting more than a quarter of
    /// it, resized to exactly `count` (its contents are stale); nil when none fits.
    func take(count: Int) -> [UInt8]? {
        guard count >= Self.minimumByteCount else { return nil }
        guard var array = free.withLock({ $0.take(fitting: count) }) else { return nil }
        if array.count > count {
            array.removeLast(array.count - count)
        } else if array.count < count {
            array.append(contentsOf: repeatElement(0, count: count - array.count))
        }
        return array
    }

    /// Keeps `array` for a later decode if it is large enough and the pool has room.
    /// A refused array is freed when this returns, outside the lock.
    func recycle(_ array: [UInt8]) {
        let capacity = array.capacity
        guard capacity >= Self.minimumByteCount, capacity <= byteLimit else { return }
        free.withLock { $0.put(array, capacity: capacity, limit: byteLimit) }
    }

    private struct FreeArrays: ~Copyable {
        /// The most recently freed last: its pages are the likeliest to be in cache.
        var arrays: [[UInt8]] = []
        var bytes = 0
        /// The largest array let go so far.
        var largestReleased = 0

        mutating func take(fitting count: Int) -> [UInt8]? {
            guard
                let index = arrays.lastIndex(where: { $0.capacity >= count && $0.capacity - count <= $0.capacity / 4 })
            else { return nil }
            let array = arrays.remove(at: index)
            bytes -= array.capacity
            return array
        }

        mutating func put(_ array: [UInt8], capacity: Int, limit: Int) {
            if capacity > largestReleased, capacity <= PixelBufferPool.largestThresholdRaise {
                largestReleased = capacity
                return
            }
            guard bytes + capacity <= limit else { return }
            arrays.append(array)
            bytes += capacity
        }
    }
}

/// Gives a library-allocated bitmap's pixel array to ``PixelBufferPool`` when the last copy of
/// the bitmap goes away, unless the bitmap changed them in place meanwhile.
final class PixelRecycler: Sendable {
    private let pixels: [UInt8]
    private let pool: PixelBufferPool
    private let isOwned = Atomic<Bool>(true)

    init(_ pixels: [UInt8], pool: PixelBufferPool) {
        self.pixels = pixels
        self.pool = pool
    }

    /// The bitmap's pixels are being changed in place: they are no longer the pool's to reuse.
    func disown() { isOwned.store(false, ordering: .relaxed) }

    deinit {
        if isOwned.load(ordering: .relaxed) { pool.recycle(pixels) }
    }
}
