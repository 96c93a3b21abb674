import Foundation

/// Where each pixel lies along a direction, as 0...1 between two relative positions: the geometry
/// the gradient and progressive-blur transformers share.
///
/// The direction is an angle in degrees, clockwise, with 0 pointing down: 0 runs from the top edge
/// to the bottom one, 90 from the right to the left, 180 upwards, 270 from the left to the right.
/// A pixel's position is its centre projected onto a line through the image's centre in that
/// direction, scaled so that the first corner's pixel centre (where the ramp starts) is at 0 and the
/// opposite corner's at 1, as CSS places a linear gradient. Its value is 0 up to `start`, 1 from
/// `stop` on, linear between; when `start` equals `stop` it steps from 0 to 1 there.
struct LinearRamp {
    /// value = clamp(x·dx + y·dy + offset), the projection and the start/stop mapping folded
    /// into one affine function of the pixel's column and row.
    private let dx: Double
    private let dy: Double
    private let offset: Double
    /// `start == stop`: a step at the position `offset` stands for.
    private let isStep: Bool

    init(width: Int, height: Int, angle: Double, start: Double, stop: Double) {
        let radians = angle.truncatingRemainder(dividingBy: 360) * .pi / 180
        // Straight down turned clockwise on screen (y grows downwards).
        var ux = -sin(radians)
        var uy = cos(radians)
        // The right angles exactly, so that a whole row or column shares one value.
        if abs(ux) < 1e-12 { ux = 0 }
        if abs(uy) < 1e-12 { uy = 0 }
        let spanX = Double(width - 1)
        let spanY = Double(height - 1)
        let length = abs(spanX * ux) + abs(spanY * uy)
        // Position p = ((x − cx)·ux + (y − cy)·uy) / length + 0.5; a one-pixel line is all 0.5.
        let scale = length > 0 ? 1 / length : 0
        let px = ux * scale
        let py = uy * scale
        let p0 = 0.5 - (spanX / 2 * ux + spanY / 2 * uy) * scale
        if start == stop {
            isStep = true
            (dx, dy, offset) = (px, py, p0 - start)
        } else {
            isStep = false
            let range = stop - start
            (dx, dy, offset) = (px / range, py / range, (p0 - start) / range)
        }
    }

    /// The ramp's value at the centre of pixel (`x`, `y`), 0...1.
    @inline(__always)
    func value(x: Int, y: Int) -> Double {
        let raw = Double(x) * dx + Double(y) * dy + offset
        if isStep { return raw >= 0 ? 1 : 0 }
        return min(max(raw, 0), 1)
    }
}

/// The parameters the ramp transformers check.
enum RampParameters {
    static func check(angle: Double, start: Double, stop: Double) throws(WebImageError) {
        guard angle.isFinite else { throw .invalidArgument("the angle \(angle) must be finite") }
        try ColorParameter.check(start, in: 0...1, "the start")
        try ColorParameter.check(stop, in: 0...1, "the stop")
    }
}
