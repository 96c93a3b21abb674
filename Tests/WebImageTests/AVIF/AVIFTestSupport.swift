import Foundation
import Testing

@testable import WebImage

/// Helpers shared by the AVIF tests (fixtures from Tests/Fixtures/generators/avif.py).
enum AVIFTestSupport {
    static func data(_ name: String) throws -> Data { try Fixtures.data("avif/\(name).avif") }

    /// Pillow's decode of `name`, as a bitmap of `size`.
    static func reference(_ name: String, _ size: PixelSize) throws -> ImageBitmap {
        try ImageBitmap(width: size.width, height: size.height, pixels: Array(Fixtures.data("avif/\(name).rgba")))
    }

    static func decode(_ data: Data, _ configure: (inout ImageDecodeOptions) -> Void = { _ in }) throws -> Image {
        var options = ImageDecodeOptions()
        configure(&options)
        return try AVIFCoder().decode(data, options: options)
    }

    /// The largest difference of any channel, over pixels visible in both (alpha > 0), and of
    /// alpha everywhere.
    static func maxVisibleDifference(_ a: ImageBitmap, _ b: ImageBitmap) -> Int {
        precondition(a.size == b.size)
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y]
                let q = b[x, y]
                worst = max(worst, abs(Int(p.a) - Int(q.a)))
                if p.a > 0 && q.a > 0 {
                    worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                }
            }
        }
        return worst
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
