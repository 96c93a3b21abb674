import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A rectangle of pixels: RGBA, 8 bits per channel, **straight (not premultiplied) alpha**,
/// rows packed top to bottom with no padding (`bytesPerRow == width * 4`).
///
/// Straight alpha keeps PNG and lossless WebP round trips bit-exact; transformers that need
/// premultiplied values convert internally. The storage is a Swift array, so copies share it
/// until one of them writes (copy on write). Large pixel arrays that the library allocated (256
/// KiB and up, through ``init(width:height:initializingWith:)``) are recycled for a later
/// decode once no copy of the bitmap is left, up to 16 MiB of unused arrays per process; an
/// array still held elsewhere (a `pixels` value copied out) is never written again.
public struct ImageBitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes, R G B A per pixel.
    public var pixels: [UInt8] {
        get { storage }
        set {
            recycler = nil
            storage = newValue
        }
        _modify {
            // Changed in place: the array stays this bitmap's, and the recycler must let go of
            // its reference first, or the write would copy the whole array.
            if let recycler {
                recycler.disown()
                self.recycler = nil
            }
            yield &storage
        }
    }
    private var storage: [UInt8]
    /// Set when the library allocated ``pixels``: hands them to ``PixelBufferPool`` when the
    /// last copy of this bitmap goes away.
    private var recycler: PixelRecycler?

    /// Wraps existing pixels; throws ``WebImageError/invalidArgument(_:underlying:)`` if the count is wrong.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(WebImageError) {
        guard width > 0, height > 0 else {
            throw .invalidArgument("bitmap size \(width)x\(height) must be positive")
        }
        guard let needed = Self.byteCount(width: width, height: height), pixels.count == needed else {
            throw .invalidArgument("bitmap \(width)x\(height) does not match the \(pixels.count) bytes given")
        }
        self.width = width
        self.height = height
        self.storage = pixels
    }

    /// A bitmap filled with one colour, for sizes the caller has checked: both sides must be
    /// positive and the byte count must fit an `Int`, or this traps. For a size from outside, use
    /// ``init(size:fill:)``, which throws instead.
    public init(width: Int, height: Int, fill: RGBA8) {
        guard let count = Self.byteCount(width: width, height: height) else {
            preconditionFailure("bitmap size \(width)x\(height) must be positive and fit in memory")
        }
        self.width = width
        self.height = height
        var pixels = [UInt8](repeating: 0, count: count)
        if fill != .clear {
            pixels.withUnsafeMutableBufferPointer { buffer in
                for i in stride(from: 0, to: buffer.count, by: 4) {
                    buffer[i] = fill.r
                    buffer[i + 1] = fill.g
                    buffer[i + 2] = fill.b
                    buffer[i + 3] = fill.a
                }
            }
        }
        self.storage = pixels
    }

    /// A bitmap of `size` filled with one colour. Throws
    /// ``WebImageError/invalidArgument(_:underlying:)`` unless both sides are positive, and
    /// ``WebImageError/imageTooLarge(width:height:limit:)`` above
    /// ``ImageDecodeOptions/defaultMaxPixelCount`` pixels, before allocating anything.
    public init(size: PixelSize, fill: RGBA8) throws(WebImageError) {
        try TransformSupport.checkResultSize(size, "bitmap")
        self.init(width: size.width, height: size.height, fill: fill)
    }

    /// `width × height × 4`, or nil when a side is not positive or the product overflows.
    static func byteCount(width: Int, height: Int) -> Int? {
        guard width > 0, height > 0 else { return nil }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflowBytes) = pixels.multipliedReportingOverflow(by: 4)
        return overflow || overflowBytes ? nil : bytes
    }

    /// Lets a decoder write straight into the bitmap's storage (no intermediate copy).
    /// `body` receives a buffer of unspecified contents (fresh memory, or the recycled pixels of
    /// an image no longer held) and must fill every byte.
    /// The caller checks the pixel limit before calling this.
    public init<Failure: Error>(
        width: Int, height: Int,
        initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        try self.init(width: width, height: height, pool: .shared, initializingWith: body)
    }

    /// As the public initializer, taking memory from and returning it to `pool`.
    init<Failure: Error>(
        width: Int, height: Int, pool: PixelBufferPool,
        initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        guard let count = Self.byteCount(width: width, height: height) else {
            preconditionFailure("bitmap size \(width)x\(height) must be positive and fit in memory")
        }
        self.width = width
        self.height = height
        storage = try pool.pixels(count: count, writtenBy: body)
        if count >= PixelBufferPool.minimumByteCount { recycler = PixelRecycler(storage, pool: pool) }
    }

    public static func == (lhs: ImageBitmap, rhs: ImageBitmap) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.storage == rhs.storage
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var bytesPerRow: Int { width * 4 }
    public var byteCount: Int { pixels.count }

    /// The pixel at column `x`, row `y` (0-based, from the top left).
    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel out of bounds")
            let i = (y * width + x) * 4
            return RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel out of bounds")
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// Whether any pixel is not fully opaque.
    public var containsTransparency: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var i = 3
            while i < buffer.count {
                if buffer[i] != 255 { return true }
                i += 4
            }
            return false
        }
    }
}

// MARK: Where pixel memory comes from

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

/// Asks the kernel to back a large, not-yet-touched pixel buffer with transparent huge pages.
///
/// A 12 MP RGBA decode writes 48 MB into memory fresh from the kernel; with 4 KiB pages that is
/// about 12,000 page faults, a large share of the decode (see Benchmarks/README.md). Linux's
/// default transparent-huge-page mode (`madvise`) only uses 2 MiB pages where asked, so this asks
/// for the page-aligned interior of buffers of 4 MiB and more. A no-op elsewhere or on failure.
enum HugePageAdvice {
    static let minimumByteCount = 4 << 20

    static func advise(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        #if os(Linux)
            guard buffer.count >= minimumByteCount, let base = buffer.baseAddress else { return }
            let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
            let address = UInt(bitPattern: base)
            let start = (address + pageSize - 1) & ~(pageSize - 1)
            let end = (address + UInt(buffer.count)) & ~(pageSize - 1)
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
