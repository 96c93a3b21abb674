import Dispatch
import Foundation

extension ImageBitmap {
    /// One output row at a time: the weighted sum of the input rows it covers (one float row,
    /// premultiplied unless `opaque`), resampled horizontally into bytes. Bands of output rows
    /// run on up to `threads` CPU threads (``ThreadPoolExecutor/concurrentPerform(iterations:_:)``).
    func resampledVerticalFirst(
        to size: PixelSize, horizontal: ResamplingContributions, vertical: ResamplingContributions, opaque: Bool,
        threads: Int
    ) -> ImageBitmap {
        let outWidth = size.width
        let outHeight = size.height
        let srcWidth = width
        return pixels.withUnsafeBufferPointer { src in
            ImageBitmap(width: outWidth, height: outHeight) { dst in
                nonisolated(unsafe) let source = src.baseAddress!
                nonisolated(unsafe) let target = dst.baseAddress!
                let band: @Sendable (Range<Int>) -> Void = { rows in
                    let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: srcWidth)
                    defer { row.deallocate() }
                    for y in rows {
                        Self.sumInputRows(
                            into: row, width: srcWidth, source: source, contributions: vertical, output: y,
                            opaque: opaque)
                        Self.resampleRow(
                            row, into: target + y * outWidth * 4, width: outWidth, contributions: horizontal,
                            opaque: opaque)
                    }
                }
                guard threads > 1, outHeight >= 2 * threads else {
                    band(0..<outHeight)
                    return
                }
                let chunks = min(outHeight, threads * 4)
                ThreadPoolExecutor.concurrentPerform(iterations: chunks) { chunk in
                    band(chunk * outHeight / chunks..<(chunk + 1) * outHeight / chunks)
                }
            }
        }
    }

    /// `row` = Σ weight × input row, over the input rows that output row `output` covers.
    private static func sumInputRows(
        into row: UnsafeMutablePointer<SIMD4<Float>>, width: Int, source: UnsafePointer<UInt8>,
        contributions: ResamplingContributions, output: Int, opaque: Bool
    ) {
        contributions.withBuffers { starts, counts, weights, maxCount in
            let floats = UnsafeMutableRawPointer(row).assumingMemoryBound(to: Float.self)
            let channelCount = width * 4
            floats.update(repeating: 0, count: channelCount)
            for k in 0..<counts[output] {
                let weight = weights[output * maxCount + k]
                let input = source + (starts[output] + k) * channelCount
                if opaque {
                    // A flat loop over bytes, which the compiler vectorises.
                    for i in 0..<channelCount { floats[i] += weight * Float(input[i]) }
                } else {
                    // Premultiplied: colour on 0...255², alpha on 0...255.
                    for x in 0..<width {
                        let p = input + 4 * x
                        let alpha = Float(p[3])
                        let pixel = SIMD4<Float>(Float(p[0]) * alpha, Float(p[1]) * alpha, Float(p[2]) * alpha, alpha)
                        row[x] += weight * pixel
                    }
                }
            }
        }
    }

    /// Resamples one float row horizontally into `width` RGBA8 pixels at `out`.
    private static func resampleRow(
        _ row: UnsafeMutablePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<UInt8>, width: Int,
        contributions: ResamplingContributions, opaque: Bool
    ) {
        contributions.withBuffers { starts, counts, weights, maxCount in
            for x in 0..<width {
                var sum = SIMD4<Float>.zero
                let first = row + starts[x]
                let base = x * maxCount
                for k in 0..<counts[x] { sum += weights[base + k] * first[k] }
                let o = out + 4 * x
                if opaque {
                    o[0] = clampByte(sum[0])
                    o[1] = clampByte(sum[1])
                    o[2] = clampByte(sum[2])
                    o[3] = 255
                    continue
                }
                let alpha = clampByte(sum[3])
                guard alpha > 0 else {
                    o.update(repeating: 0, count: 4)
                    continue
                }
                let inverse = 1 / max(sum[3], 1e-6)
                o[0] = clampByte(sum[0] * inverse)
                o[1] = clampByte(sum[1] * inverse)
                o[2] = clampByte(sum[2] * inverse)
                o[3] = alpha
            }
        }
    }
}
