@testable import WebImage

/// Whether every channel of `a` is within `tolerance` of `b`.
func isClose(_ a: RGBA8, _ b: RGBA8, tolerance: Int = 10) -> Bool {
    abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
        && abs(Int(a.b) - Int(b.b)) <= tolerance && abs(Int(a.a) - Int(b.a)) <= tolerance
}

/// Whether both lists have the same length and each pair is ``isClose(_:_:tolerance:)``.
func areClose(_ a: [RGBA8], _ b: [RGBA8], tolerance: Int = 10) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { isClose($0, $1, tolerance: tolerance) }
}

/// Whether two bitmaps share their pixel storage (the same buffer, not an equal copy), which shows
/// that nothing was decoded again.
func sharesStorage(_ a: ImageBitmap, _ b: ImageBitmap) -> Bool {
    a.pixels.withUnsafeBufferPointer { first in
        b.pixels.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress }
    }
}
