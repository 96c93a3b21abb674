import Foundation

@testable import WebImage

/// Lanczos-3 computed directly in two dimensions over every source pixel, premultiplied,
/// in Double: the textbook definition, independent of the separable resampler.
func referenceLanczos3(_ source: ImageBitmap, to size: PixelSize) -> ImageBitmap {
    func kernel(_ x: Double) -> Double {
        let x = abs(x)
        if x < 1e-12 { return 1 }
        if x >= 3 { return 0 }
        return 3 * sin(Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x)
    }
    let scaleX = Double(source.width) / Double(size.width)
    let scaleY = Double(source.height) / Double(size.height)
    let filterX = max(scaleX, 1)
    let filterY = max(scaleY, 1)
    var out = ImageBitmap(width: size.width, height: size.height, fill: .clear)
    for oy in 0..<size.height {
        let cy = (Double(oy) + 0.5) * scaleY
        for ox in 0..<size.width {
            let cx = (Double(ox) + 0.5) * scaleX
            var sum = [0.0, 0.0, 0.0, 0.0]
            var total = 0.0
            for sy in 0..<source.height {
                let wy = kernel((Double(sy) + 0.5 - cy) / filterY)
                if wy == 0 { continue }
                for sx in 0..<source.width {
                    let w = wy * kernel((Double(sx) + 0.5 - cx) / filterX)
                    if w == 0 { continue }
                    let p = source[sx, sy]
                    let a = Double(p.a)
                    sum[0] += w * Double(p.r) * a
                    sum[1] += w * Double(p.g) * a
                    sum[2] += w * Double(p.b) * a
                    sum[3] += w * a
                    total += w
                }
            }
            let alpha = min(max(sum[3] / total, 0), 255)
            guard alpha.rounded() > 0 else { continue }
            // Straight colour divides by the premultiplied alpha before it is clamped: where the
            // kernel's lobes overshoot 255, clamping first would brighten the colour.
            func channel(_ v: Double) -> UInt8 {
                UInt8(clamping: v / sum[3], rounding: .toNearestOrAwayFromZero)
            }
            out[ox, oy] = RGBA8(
                r: channel(sum[0]), g: channel(sum[1]), b: channel(sum[2]),
                a: UInt8(clamping: alpha, rounding: .toNearestOrAwayFromZero))
        }
    }
    return out
}
