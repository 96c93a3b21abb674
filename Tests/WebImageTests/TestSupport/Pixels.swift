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
