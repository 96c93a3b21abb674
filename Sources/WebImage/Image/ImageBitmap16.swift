/// One straight (non-premultiplied) RGBA pixel, 16 bits per channel.
public struct RGBA16: Hashable, Sendable {
    public var r: UInt16
    public var g: UInt16
    public var b: UInt16
    public var a: UInt16

    public init(r: UInt16, g: UInt16, b: UInt16, a: UInt16 = 65535) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
}

/// A rectangle of pixels with more than 8 bits per channel: RGBA, 16 bits per channel in native
/// byte order, **straight (not premultiplied) alpha**, rows packed top to bottom with no padding
/// (`width * 4` values a row).
///
/// Decoders make one (``Image/deepBitmap``) only when ``ImageDecodeOptions/preservesHighBitDepth``
/// asks and the source holds more than 8 bits per sample; sources of fewer bits are scaled to the
/// full 0…65535 range (a 10-bit 1023 becomes 65535). ``reducedToEightBits()`` gives the
/// ``ImageBitmap`` that goes with it.
public struct ImageBitmap16: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` values, R G B A per pixel.
    public var pixels: [UInt16]

    /// Wraps existing pixels; throws ``WebImageError/invalidArgument(_:underlying:)`` if a side is not
    /// positive or the count does not match.
    public init(width: Int, height: Int, pixels: [UInt16]) throws(WebImageError) {
        let needed = try Self.valueCount(width: width, height: height)
        guard pixels.count == needed else {
            throw .invalidArgument("bitmap \(width)x\(height) does not match the \(pixels.count) values given")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A bitmap of `size` filled with one colour. Throws ``WebImageError/invalidArgument(_:underlying:)``
    /// unless both sides are positive, and ``WebImageError/imageTooLarge(width:height:limit:)`` above
    /// ``ImageDecodeOptions/defaultMaxPixelCount`` pixels, before allocating anything.
    public init(size: PixelSize, fill: RGBA16) throws(WebImageError) {
        try TransformSupport.checkResultSize(size, "bitmap")
        let count = try Self.valueCount(width: size.width, height: size.height)
        var pixels = [UInt16](repeating: 0, count: count)
        for i in stride(from: 0, to: count, by: 4) {
            pixels[i] = fill.r
            pixels[i + 1] = fill.g
            pixels[i + 2] = fill.b
            pixels[i + 3] = fill.a
        }
        self.width = size.width
        self.height = size.height
        self.pixels = pixels
    }

    /// Lets a decoder write straight into the storage: `body` receives a buffer of unspecified
    /// contents and must fill every value. Throws ``WebImageError/invalidArgument(_:underlying:)``
    /// when a side is not positive or the count overflows; the caller checks the pixel limit.
    public init(
        width: Int, height: Int,
        initializingWith body: (UnsafeMutableBufferPointer<UInt16>) throws(WebImageError) -> Void
    ) throws(WebImageError) {
        let count = try Self.valueCount(width: width, height: height)
        self.width = width
        self.height = height
        self.pixels = try [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized throws(WebImageError) in
            try body(buffer)
            initialized = count
        }
    }

    /// `width × height × 4`, or an error when a side is not positive or the product overflows.
    static func valueCount(width: Int, height: Int) throws(WebImageError) -> Int {
        guard width > 0, height > 0, let bytes = ImageBitmap.byteCount(width: width, height: height),
            bytes <= Int.max / 2
        else {
            throw .invalidArgument("bitmap size \(width)x\(height) must be positive and fit in memory")
        }
        return bytes
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// The bytes the pixels take: 8 a pixel.
    public var byteCount: Int { pixels.count * 2 }

    /// The pixel at column `x`, row `y` (0-based, from the top left), or nil outside the bitmap.
    public subscript(x: Int, y: Int) -> RGBA16? {
        guard x >= 0, x < width, y >= 0, y < height else { return nil }
        let i = (y * width + x) * 4
        return RGBA16(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }

    /// Whether any pixel is not fully opaque.
    public var containsTransparency: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var i = 3
            while i < buffer.count {
                if buffer[i] != 65535 { return true }
                i += 4
            }
            return false
        }
    }

    /// The 8-bit bitmap of the same pixels, each value rounded to the nearest of 256 levels
    /// (`(v × 255 + 32767) / 65535`).
    public func reducedToEightBits() -> ImageBitmap {
        pixels.withUnsafeBufferPointer { source in
            ImageBitmap(width: width, height: height) { bytes in
                for i in 0..<source.count { bytes[i] = Self.eightBit(source[i]) }
            }
        }
    }

    /// `value` rounded to 8 bits.
    @inline(__always)
    static func eightBit(_ value: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(value) &* 255 &+ 32767) / 65535)
    }

    /// The 16-bit bitmap of an 8-bit one, each value `v` widened exactly to `v × 257`.
    public init(widening bitmap: ImageBitmap) {
        width = bitmap.width
        height = bitmap.height
        pixels = bitmap.pixels.map { UInt16($0) &* 257 }
    }
}

extension Image {
    /// This image with `deep` as its ``deepBitmap`` and ``bitmap`` made from it (unless
    /// `bitmapIsMade`: the bitmap was made from `deep` already), so that the two always show the
    /// same picture.
    func withDeepBitmap(_ deep: ImageBitmap16, bitmapIsMade: Bool = false) -> Image {
        var image = self
        if !bitmapIsMade { image.bitmap = deep.reducedToEightBits() }
        image.deepBitmap = deep
        return image
    }
}
