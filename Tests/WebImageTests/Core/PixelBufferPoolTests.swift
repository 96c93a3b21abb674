import Testing

@testable import WebImage

/// Decoded pixels are recycled (``PixelBufferPool``): only once no bitmap or `pixels` value
/// holds them, bounded, and never visible in another image.
@Suite("Pixel buffer pool")
struct PixelBufferPoolTests {
    /// 256 × 256 RGBA: exactly the smallest array the pool keeps.
    static let side = 256
    static let byteCount = side * side * 4

    static func bitmap(_ pool: PixelBufferPool, fill value: UInt8, side: Int = side) -> ImageBitmap {
        ImageBitmap(width: side, height: side, pool: pool) { $0.update(repeating: value) }
    }

    /// A pool that has already let go of its first array of `side`: from then on it keeps them.
    static func primedPool(byteLimit: Int = 4 << 20, side: Int = side) -> PixelBufferPool {
        let pool = PixelBufferPool(byteLimit: byteLimit)
        _ = bitmap(pool, fill: 0, side: side)
        return pool
    }

    static func address(_ pixels: [UInt8]) -> UInt {
        pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("Pixels go back only when the last copy of the bitmap goes")
    func recycledAfterTheLastCopy() {
        let pool = Self.primedPool()
        var first: ImageBitmap? = Self.bitmap(pool, fill: 1)
        var copy = first
        first = nil
        #expect(pool.pooledBytes == 0)

        // While the copy lives, a new bitmap gets memory of its own.
        let other = Self.bitmap(pool, fill: 2)
        #expect(Self.address(other.pixels) != copy.map { Self.address($0.pixels) })
        #expect(copy?.pixels.allSatisfy { $0 == 1 } == true)

        copy = nil
        #expect(pool.pooledBytes >= Self.byteCount)
        _ = (first, copy)
    }

    @Test("The array goes back when the last copy goes, and the next bitmap writes into it")
    func recycledArrayIsRewritten() {
        let pool = Self.primedPool()
        var first: ImageBitmap? = Self.bitmap(pool, fill: 1)
        let address = first.map { Self.address($0.pixels) }
        first = nil
        #expect(pool.pooledBytes >= Self.byteCount)

        let second = Self.bitmap(pool, fill: 2)
        #expect(pool.pooledBytes == 0)
        #expect(Self.address(second.pixels) == address)
        #expect(second.pixels.count == Self.byteCount)
        #expect(second.pixels.allSatisfy { $0 == 2 })
    }

    @Test("Pixels copied out of a dropped bitmap are never overwritten by a later decode")
    func heldPixelsStayIntact() {
        let pool = Self.primedPool()
        var first: ImageBitmap? = Self.bitmap(pool, fill: 1)
        let kept = first?.pixels ?? []
        first = nil

        let second = Self.bitmap(pool, fill: 2)
        #expect(kept.count == Self.byteCount)
        #expect(kept.allSatisfy { $0 == 1 })
        #expect(second.pixels.allSatisfy { $0 == 2 })
        #expect(Self.address(second.pixels) != Self.address(kept))
    }

    @Test("A bitmap changed in place keeps its array: it is not recycled under it")
    func inPlaceChangeDisownsThePixels() {
        let pool = Self.primedPool()
        var bitmap = Self.bitmap(pool, fill: 1)
        let address = Self.address(bitmap.pixels)
        bitmap[0, 0] = RGBA8(r: 9, g: 9, b: 9, a: 9)
        // Written in place (no copy), and nothing went to the pool.
        #expect(Self.address(bitmap.pixels) == address)
        #expect(pool.pooledBytes == 0)

        let other = Self.bitmap(pool, fill: 2)
        #expect(Self.address(other.pixels) != address)
        #expect(bitmap[0, 0] == RGBA8(r: 9, g: 9, b: 9, a: 9))
        #expect(bitmap[1, 0] == RGBA8(r: 1, g: 1, b: 1, a: 1))
    }

    @Test("A decode that throws gives its recycled array back")
    func throwingBodyReturnsTheArray() {
        let pool = Self.primedPool()
        var first: ImageBitmap? = Self.bitmap(pool, fill: 1)
        first = nil
        let pooled = pool.pooledBytes
        #expect(pooled >= Self.byteCount)

        #expect(throws: WebImageError.self) {
            _ = try ImageBitmap(width: Self.side, height: Self.side, pool: pool) { _ in
                throw WebImageError.badImageData("truncated")
            }
        }
        #expect(pool.pooledBytes == pooled)
        _ = first
    }

    @Test("The pool keeps at most its limit, nothing below 256 KiB, and only close sizes fit")
    func bounded() {
        let large = 512 * 512 * 4
        let pool = Self.primedPool(byteLimit: large * 3 / 2, side: 512)
        var held = [Self.bitmap(pool, fill: 1, side: 512), Self.bitmap(pool, fill: 1, side: 512)]
        held.removeAll()
        // Room for one array only.
        #expect(pool.pooledBytes >= large)
        #expect(pool.pooledBytes <= large * 3 / 2)

        var small: ImageBitmap? = Self.bitmap(pool, fill: 1, side: 128)
        let before = pool.pooledBytes
        small = nil
        #expect(pool.pooledBytes == before)

        // A much smaller or a larger request leaves the array alone; a close one takes it.
        #expect(pool.take(count: large / 2) == nil)
        #expect(pool.take(count: large * 2) == nil)
        #expect(pool.take(count: PixelBufferPool.minimumByteCount / 2) == nil)
        #expect(pool.take(count: large - 4_096)?.count == large - 4_096)
        #expect(pool.pooledBytes == 0)
        _ = (held, small)
    }

    @Test("The first array of each new largest size is let go, so glibc raises its thresholds")
    func firstOfEachLargerSizeIsFreed() {
        let pool = PixelBufferPool(byteLimit: 16 << 20)
        var first: ImageBitmap? = Self.bitmap(pool, fill: 1)
        first = nil
        #expect(pool.pooledBytes == 0)
        var second: ImageBitmap? = Self.bitmap(pool, fill: 1)
        second = nil
        let kept = pool.pooledBytes
        #expect(kept >= Self.byteCount)

        // A larger size is let go once, then kept; a smaller one is kept at once.
        var large: ImageBitmap? = Self.bitmap(pool, fill: 1, side: 512)
        large = nil
        #expect(pool.pooledBytes == kept)
        large = Self.bitmap(pool, fill: 1, side: 512)
        large = nil
        #expect(pool.pooledBytes >= kept + 512 * 512 * 4)
        var between: ImageBitmap? = Self.bitmap(pool, fill: 1, side: 384)
        between = nil
        #expect(pool.pooledBytes >= kept + 512 * 512 * 4 + 384 * 384 * 4)
        _ = (first, second, large, between)
    }

    @Test("Equality compares the pixels, whether or not they are recycled")
    func equalityIgnoresRecycling() throws {
        let pool = Self.primedPool()
        let pooled = Self.bitmap(pool, fill: 5)
        let plain = try ImageBitmap(
            width: Self.side, height: Self.side, pixels: [UInt8](repeating: 5, count: Self.byteCount))
        #expect(pooled == plain)
        var changed = pooled
        changed[3, 3] = RGBA8(r: 0, g: 0, b: 0, a: 0)
        #expect(changed != plain)
        #expect(pooled == plain)
    }
}
