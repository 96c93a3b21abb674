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
