import WebImage

/// Resamples a bitmap to the pixel size a terminal rendering needs, with a box filter: each
/// output pixel is the alpha-weighted average of the source pixels it covers (the nearest source
/// pixel when enlarging).
///
/// With a background colour every pixel is blended over it and comes out opaque; without one,
/// colours are kept straight and alpha averaged, so a renderer can leave transparent pixels to
/// the terminal.
enum TerminalPixelSampler {
    static func sample(_ bitmap: ImageBitmap, to size: PixelSize, background: RGBA8?) -> [UInt8] {
        var output: [UInt8]
        if size == bitmap.size {
            output = bitmap.pixels
        } else {
            output = boxFilter(bitmap, to: size)
        }
        if let background { blend(&output, over: background) }
        return output
    }

    /// The source span `[start, end)` output index `index` of `count` covers in `length` pixels.
    @inline(__always)
    private static func span(_ index: Int, of count: Int, in length: Int) -> (Int, Int) {
        let start = index * length / count
        let end = max(start + 1, (index + 1) * length / count)
        return (start, min(end, length))
    }

    private static func boxFilter(_ bitmap: ImageBitmap, to size: PixelSize) -> [UInt8] {
        let width = bitmap.width
        let height = bitmap.height
        let columnSpans = (0..<size.width).map { span($0, of: size.width, in: width) }
        var output = [UInt8](repeating: 0, count: size.width * size.height * 4)
        // Per output column: alpha-weighted colour sums and the alpha sum over the current row band.
        var sums = [Int](repeating: 0, count: size.width * 4)
        bitmap.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                sums.withUnsafeMutableBufferPointer { sums in
                    for outputY in 0..<size.height {
                        let (top, bottom) = span(outputY, of: size.height, in: height)
                        for i in 0..<sums.count { sums[i] = 0 }
                        for y in top..<bottom {
                            let row = y * width * 4
                            for (outputX, (left, right)) in columnSpans.enumerated() {
                                var r = 0
                                var g = 0
                                var b = 0
                                var a = 0
                                var i = row + left * 4
                                for _ in left..<right {
                                    let alpha = Int(source[i + 3])
                                    r += Int(source[i]) * alpha
                                    g += Int(source[i + 1]) * alpha
                                    b += Int(source[i + 2]) * alpha
                                    a += alpha
                                    i += 4
                                }
                                let s = outputX * 4
                                sums[s] += r
                                sums[s + 1] += g
                                sums[s + 2] += b
                                sums[s + 3] += a
                            }
                        }
                        let area = bottom - top
                        for (outputX, (left, right)) in columnSpans.enumerated() {
                            let s = outputX * 4
                            let o = (outputY * size.width + outputX) * 4
                            let alphaSum = sums[s + 3]
                            let count = area * (right - left)
                            destination[o + 3] = UInt8((alphaSum + count / 2) / count)
                            guard alphaSum > 0 else { continue }
                            destination[o] = UInt8((sums[s] + alphaSum / 2) / alphaSum)
                            destination[o + 1] = UInt8((sums[s + 1] + alphaSum / 2) / alphaSum)
                            destination[o + 2] = UInt8((sums[s + 2] + alphaSum / 2) / alphaSum)
                        }
                    }
                }
            }
        }
        return output
    }

    private static func blend(_ pixels: inout [UInt8], over background: RGBA8) {
        let backdrop = [Int(background.r), Int(background.g), Int(background.b)]
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in stride(from: 0, to: buffer.count, by: 4) {
                let alpha = Int(buffer[i + 3])
                if alpha == 255 { continue }
                for c in 0..<3 {
                    buffer[i + c] = UInt8((Int(buffer[i + c]) * alpha + backdrop[c] * (255 - alpha) + 127) / 255)
                }
                buffer[i + 3] = 255
            }
        }
    }
}
