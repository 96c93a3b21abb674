import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A decoded image: RGBA8 pixels plus what SDWebImage keeps on `UIImage` and its `sd_` properties.
///
/// `Image` is a value type; its pixel storage is copy on write, so passing it around is cheap.
/// For an animation, ``bitmap`` is the first frame (the poster) and ``animation`` holds every
/// frame, decoded up front or on demand (see ``ImageAnimation``).
public struct Image: Sendable {
    /// The pixels: the still image, or the first frame of an animation. Setting or changing them
    /// drops ``deepBitmap``, which would no longer show the same picture; code that keeps deep
    /// pixels sets ``deepBitmap`` after ``bitmap``.
    public var bitmap: ImageBitmap {
        didSet { deepBitmap = nil }
    }
    /// The same pixels at 16 bits per channel, kept only when a decoder was asked to
    /// (``ImageDecodeOptions/preservesHighBitDepth``) and the source held more than 8 bits per
    /// sample (PNG, TIFF, AVIF, HEIC, JPEG XL); nil otherwise. When present, ``bitmap`` is this
    /// rounded to 8 bits. PNG, TIFF and JPEG XL write it at 16 bits, AVIF at 10; the other
    /// encoders (HEIC's too) use ``bitmap``.
    /// Orientation, crop, flip, quarter-turn rotation and resizing keep it; transformers that work
    /// on 8-bit pixels only drop it, so it never disagrees with ``bitmap``. Still images only.
    public var deepBitmap: ImageBitmap16? = nil
    /// Points-to-pixels factor (SDWebImage's `scale`, from `@2x` keys or the scale-factor option).
    public var scale: Double
    /// How ``bitmap`` must be turned to show upright. `.up` once a decoder has applied EXIF orientation.
    public var orientation: ImageOrientation
    /// The format the image was decoded from, or ``ImageFormat/undefined`` for images made in memory.
    public var format: ImageFormat
    /// The frames of an animation; nil for a still image.
    public var animation: ImageAnimation?
    /// A partial result of progressive loading (`sd_isIncremental`).
    public var isIncremental: Bool
    /// Decoded at a reduced size because a thumbnail size or byte limit asked for it (`sd_isThumbnail`).
    public var isThumbnail: Bool
    /// Produced by a transformer (`sd_isTransformed`).
    public var isTransformed: Bool
    /// Whether the source has an alpha channel (not whether any pixel is transparent;
    /// see ``ImageBitmap/containsTransparency``).
    public var hasAlpha: Bool
    /// The EXIF, ICC and XMP blocks the decoder kept (``ImageDecodeOptions/readMetadata``), which
    /// encoders can write again (``ImageEncodeOptions/keptMetadata``). Transformers carry it over.
    public var metadata: ImageMetadata

    public init(
        bitmap: ImageBitmap, scale: Double = 1, orientation: ImageOrientation = .up,
        format: ImageFormat = .undefined, animation: ImageAnimation? = nil,
        hasAlpha: Bool = true, isIncremental: Bool = false, isThumbnail: Bool = false,
        isTransformed: Bool = false, metadata: ImageMetadata = ImageMetadata()
    ) {
        self.bitmap = bitmap
        self.scale = scale
        self.orientation = orientation
        self.format = format
        self.animation = animation
        self.hasAlpha = hasAlpha
        self.isIncremental = isIncremental
        self.isThumbnail = isThumbnail
        self.isTransformed = isTransformed
        self.metadata = metadata
    }

    /// Width of ``bitmap`` in pixels (as stored; see ``orientation``).
    public var width: Int { bitmap.width }
    /// Height of ``bitmap`` in pixels (as stored; see ``orientation``).
    public var height: Int { bitmap.height }
    /// The size in pixels as shown, after ``orientation``.
    public var orientedSize: PixelSize {
        orientation.swapsDimensions
            ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
    }
    /// Whether this is an animation of more than one frame.
    public var isAnimated: Bool { (animation?.frameCount ?? 1) > 1 }
    /// Frames in the image: 1 for a still image.
    public var frameCount: Int { animation?.frameCount ?? 1 }

    /// Bytes of decoded pixels this value actually holds: the poster bitmap plus any animation
    /// frames that are decoded and kept (frames shared with the poster are counted once), plus
    /// the ``deepBitmap`` if any, plus the ``metadata`` blocks. This is the cost a memory cache
    /// should charge.
    public var memoryCost: Int {
        let pixels = animation.map { max(bitmap.byteCount, $0.heldByteCount) } ?? bitmap.byteCount
        return pixels + (deepBitmap?.byteCount ?? 0) + metadata.byteCount
    }
}

/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// 0×0, which SDWebImage's thumbnail options read as "off".
    public static let zero = PixelSize(width: 0, height: 0)

    /// Whether both sides are positive.
    public var isPositive: Bool { width > 0 && height > 0 }

    /// `width × height`, saturating instead of overflowing.
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }

    public var description: String { "\(width)x\(height)" }
}

extension PixelSize {
    /// The largest side a size made from floating-point lengths may have: `Int32.max`, beyond
    /// any image a codec can hold, so that products of two sides never overflow `Int`.
    public static let maximumSide = Int(Int32.max)

    /// A size from floating-point lengths (a layout's points times a screen scale, say), each
    /// rounded by `rule`. Throws ``WebImageError/invalidArgument(_:underlying:)`` when a side is
    /// NaN, infinite, negative or above ``maximumSide`` after rounding.
    public init(
        width: Double, height: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
    ) throws(WebImageError) {
        self.init(
            width: try PixelSize.side(width, rule, "width", in: 0...Self.maximumSide),
            height: try PixelSize.side(height, rule, "height", in: 0...Self.maximumSide))
    }

    /// `value` rounded by `rule`, or an error naming `what` unless it lies within `range`.
    static func side(
        _ value: Double, _ rule: FloatingPointRoundingRule, _ what: String, in range: ClosedRange<Int>
    ) throws(WebImageError) -> Int {
        let rounded = value.rounded(rule)
        guard rounded >= Double(range.lowerBound), rounded <= Double(range.upperBound) else {
            throw .invalidArgument("\(what) \(value) must be a finite number within \(range)")
        }
        return Int(clamping: rounded)
    }
}

/// The EXIF orientation (TIFF tag 274) of stored pixels: how to turn them to show the image upright.
///
/// Raw values are the EXIF values 1…8; names follow `CGImagePropertyOrientation`.
public enum ImageOrientation: Int, Sendable, CaseIterable, Codable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether showing the image upright swaps its width and height (orientations 5–8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The EXIF value, or `.up` for anything outside 1…8 (as decoders treat bad tags).
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }
}

extension ImageBitmap {
    /// The bitmap turned so that it shows upright, given the orientation its pixels are stored in.
    public func applyingOrientation(_ orientation: ImageOrientation) -> ImageBitmap {
        if orientation == .up { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        return pixels.withUnsafeBytes { srcRaw in
            ImageBitmap(width: outWidth, height: outHeight) { dstBytes in
                orientation.permute(
                    srcRaw.bindMemory(to: UInt32.self),
                    into: UnsafeMutableRawBufferPointer(dstBytes).bindMemory(to: UInt32.self), width: width,
                    height: height)
            }
        }
    }
}

extension ImageOrientation {
    /// Copies the pixels of a `width × height` image stored in this orientation (one `Pixel` value
    /// each) to `destination` upright (its sides swapped for orientations 5–8).
    func permute<Pixel>(
        _ source: UnsafeBufferPointer<Pixel>, into destination: UnsafeMutableBufferPointer<Pixel>, width w: Int,
        height h: Int
    ) {
        let outWidth = swapsDimensions ? h : w
        let outHeight = swapsDimensions ? w : h
        for dy in 0..<outHeight {
            let row = dy * outWidth
            for dx in 0..<outWidth {
                let sx: Int
                let sy: Int
                switch self {
                case .up: (sx, sy) = (dx, dy)
                case .upMirrored: (sx, sy) = (w - 1 - dx, dy)
                case .down: (sx, sy) = (w - 1 - dx, h - 1 - dy)
                case .downMirrored: (sx, sy) = (dx, h - 1 - dy)
                case .leftMirrored: (sx, sy) = (dy, dx)
                case .right: (sx, sy) = (dy, h - 1 - dx)
                case .rightMirrored: (sx, sy) = (w - 1 - dy, h - 1 - dx)
                case .left: (sx, sy) = (w - 1 - dy, dx)
                }
                destination[row + dx] = source[sy * w + sx]
            }
        }
    }
}

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

/// The metadata blocks a file carried besides its pixels: EXIF, the ICC colour profile and XMP,
/// each as the raw bytes the format stores.
///
/// Decoders fill in the kinds ``ImageDecodeOptions/readMetadata`` asks for (the ICC profile by
/// default); encoders write the kinds ``ImageEncodeOptions/keptMetadata`` keeps (the ICC profile
/// by default) to JPEG, PNG and WebP. GIF stores none of them.
public struct ImageMetadata: Sendable, Hashable {
    /// The EXIF block as TIFF-structured data (starting `II*\0` or `MM\0*`), without the
    /// `Exif\0\0` header a JPEG puts in front of it.
    public var exif: Data?
    /// The ICC colour profile the pixels are in. Pixels are not converted: the profile says what
    /// their values mean, so it travels with them.
    public var iccProfile: Data?
    /// The XMP packet (XML, UTF-8).
    public var xmp: Data?

    public init(exif: Data? = nil, iccProfile: Data? = nil, xmp: Data? = nil) {
        self.exif = exif
        self.iccProfile = iccProfile
        self.xmp = xmp
    }

    /// Which blocks of metadata to read or write.
    public struct Kinds: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The EXIF block (camera settings, date, and often the place a photo was taken).
        public static let exif = Kinds(rawValue: 1 << 0)
        /// The ICC colour profile.
        public static let iccProfile = Kinds(rawValue: 1 << 1)
        /// The XMP packet.
        public static let xmp = Kinds(rawValue: 1 << 2)
        /// Every kind.
        public static let all: Kinds = [.exif, .iccProfile, .xmp]
    }

    /// Whether no block is present.
    public var isEmpty: Bool { exif == nil && iccProfile == nil && xmp == nil }

    /// The bytes the blocks take (part of ``Image/memoryCost``).
    public var byteCount: Int { (exif?.count ?? 0) + (iccProfile?.count ?? 0) + (xmp?.count ?? 0) }

    /// Only the blocks of `kinds`.
    public func filtered(to kinds: Kinds) -> ImageMetadata {
        ImageMetadata(
            exif: kinds.contains(.exif) ? exif : nil,
            iccProfile: kinds.contains(.iccProfile) ? iccProfile : nil,
            xmp: kinds.contains(.xmp) ? xmp : nil)
    }

    /// What an encoder writes: the blocks of `kinds`, with the EXIF orientation set to upright
    /// because encoders write upright pixels. Other EXIF tags (such as the pixel dimensions) are
    /// copied as they are.
    func forEncoding(_ kinds: Kinds) -> ImageMetadata {
        var kept = filtered(to: kinds)
        if let exif = kept.exif { kept.exif = EXIFOrientation.settingUpright(inTIFF: exif) }
        return kept
    }
}
