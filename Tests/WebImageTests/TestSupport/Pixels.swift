import Foundation

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

/// Differences between two bitmaps of one size, for decoders compared with a reference.
enum PixelMetrics {
    /// The largest difference of any channel, over pixels visible in both (alpha at least
    /// `minimumAlpha`: colour below it is imprecise), and of alpha everywhere.
    static func maxVisibleDifference(_ a: ImageBitmap, _ b: ImageBitmap, minimumAlpha: UInt8 = 1) -> Int {
        precondition(a.size == b.size)
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y]
                let q = b[x, y]
                worst = max(worst, abs(Int(p.a) - Int(q.a)))
                if p.a >= minimumAlpha && q.a >= minimumAlpha {
                    worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                }
            }
        }
        return worst
    }

    /// The largest difference of any channel, alpha included, between two bitmaps of one size.
    static func maxChannelDifference(_ a: ImageBitmap, _ b: ImageBitmap) -> Int {
        precondition(a.size == b.size)
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Peak signal-to-noise ratio over the colour channels, in dB.
    static func psnr(_ a: ImageBitmap, _ b: ImageBitmap) -> Double {
        precondition(a.size == b.size)
        var sum = 0.0
        var count = 0
        for (index, (x, y)) in zip(a.pixels, b.pixels).enumerated() where index % 4 != 3 {
            let d = Double(x) - Double(y)
            sum += d * d
            count += 1
        }
        let mse = sum / Double(count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
