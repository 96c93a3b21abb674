/// A rectangle of pixels: RGBA, 8 bits per channel, **straight (not premultiplied) alpha**,
/// rows packed top to bottom with no padding (`bytesPerRow == width * 4`).
///
/// Straight alpha keeps PNG and lossless WebP round trips bit-exact; transformers that need
/// premultiplied values convert internally. The storage is a Swift array, so copies share it
/// until one of them writes (copy on write).
public struct ImageBitmap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes, R G B A per pixel.
    public var pixels: [UInt8]

    /// Wraps existing pixels; throws ``WebImageError/invalidArgument(_:)`` if the count is wrong.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width > 0, height > 0 else {
            throw WebImageError.invalidArgument("bitmap size \(width)x\(height) must be positive")
        }
        guard pixels.count == width * height * 4 else {
            throw WebImageError.invalidArgument(
                "bitmap \(width)x\(height) needs \(width * height * 4) bytes, got \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A bitmap filled with one colour.
    public init(width: Int, height: Int, fill: RGBA8) {
        precondition(width > 0 && height > 0, "bitmap size must be positive")
        self.width = width
        self.height = height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
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
        self.pixels = pixels
    }

    /// Lets a decoder write straight into the bitmap's storage (no intermediate copy).
    /// `body` receives the uninitialised buffer and must fill every byte.
    /// The caller checks the pixel limit before calling this.
    public init(
        width: Int, height: Int,
        initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        precondition(width > 0 && height > 0, "bitmap size must be positive")
        self.width = width
        self.height = height
        let count = width * height * 4
        self.pixels = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            HugePageAdvice.advise(buffer)
            try body(buffer)
            initialized = count
        }
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
