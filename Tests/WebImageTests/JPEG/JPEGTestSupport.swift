import Foundation
import Testing

@testable import WebImage

/// Shared expectations for the JPEG fixtures (see Tests/Fixtures/generators/jpeg.py).
enum JPEGFixture {
    /// Upright quadrant colours: top-left, top-right, bottom-left, bottom-right.
    static let quadrants: [RGBA8] = [
        RGBA8(r: 255, g: 0, b: 0), RGBA8(r: 0, g: 255, b: 0),
        RGBA8(r: 0, g: 0, b: 255), RGBA8(r: 255, g: 255, b: 0),
    ]

    static func data(_ name: String) throws -> Data {
        try Fixtures.data("jpeg/\(name)")
    }

    static func decode(_ name: String, _ configure: (inout ImageDecodeOptions) -> Void = { _ in }) throws -> Image {
        try JPEGCoder().decode(try data(name), configure)
    }
}

extension ImageBitmap {
    /// The mean colour of the (2r+1)² pixels around (x, y), which smooths JPEG noise.
    func mean(x: Int, y: Int, radius: Int = 2) -> RGBA8 {
        var sums = [0, 0, 0, 0]
        var n = 0
        for yy in max(0, y - radius)...min(height - 1, y + radius) {
            for xx in max(0, x - radius)...min(width - 1, x + radius) {
                let p = self[xx, yy]
                sums[0] += Int(p.r)
                sums[1] += Int(p.g)
                sums[2] += Int(p.b)
                sums[3] += Int(p.a)
                n += 1
            }
        }
        return RGBA8(
            r: UInt8(sums[0] / n), g: UInt8(sums[1] / n), b: UInt8(sums[2] / n), a: UInt8(sums[3] / n))
    }

    /// Mean colours at the centres of the four quadrants (TL, TR, BL, BR).
    var quadrantColours: [RGBA8] {
        [
            mean(x: width / 4, y: height / 4), mean(x: 3 * width / 4, y: height / 4),
            mean(x: width / 4, y: 3 * height / 4), mean(x: 3 * width / 4, y: 3 * height / 4),
        ]
    }
}
