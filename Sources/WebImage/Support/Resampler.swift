import Foundation

/// A separable resampling filter.
public enum ResamplingFilter: Sendable {
    /// Area average: each output pixel is the mean of the input it covers.
    case box
    /// Linear (tent) interpolation, widened by the reduction factor when shrinking.
    case triangle
    /// Lanczos with 3 lobes: the sharpest, as Pillow's LANCZOS and vips' default.
    case lanczos3

    var support: Double {
        switch self {
        case .box: 0.5
        case .triangle: 1
        case .lanczos3: 3
        }
    }

    func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .box: return x < 0.5 ? 1 : (x == 0.5 ? 0.5 : 0)
        case .triangle: return x < 1 ? 1 - x : 0
        case .lanczos3:
            if x < 1e-8 { return 1 }
            if x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}

/// For each output coordinate: the first input index it reads and the normalised weights.
struct ResamplingContributions {
    let starts: [Int]
    let counts: [Int]
    /// `outputCount * maxCount` weights; row `i` holds `counts[i]` used values.
    let weights: [Float]
    let maxCount: Int

    init(inputCount: Int, outputCount: Int, filter: ResamplingFilter) {
        let scale = Double(inputCount) / Double(outputCount)
        let filterScale = max(scale, 1)
        let radius = filter.support * filterScale
        let maxCount = Int(radius.rounded(.up)) * 2 + 1
        var starts = [Int](repeating: 0, count: outputCount)
        var counts = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * maxCount)
        for out in 0..<outputCount {
            let center = (Double(out) + 0.5) * scale
            let first = max(0, Int((center - radius).rounded(.down)))
            let last = min(inputCount, Int((center + radius).rounded(.up)))
            var total = 0.0
            var local = [Double](repeating: 0, count: max(0, last - first))
            for i in first..<last {
                let w = filter.weight((Double(i) + 0.5 - center) / filterScale)
                local[i - first] = w
                total += w
            }
            // Trim zero weights at both ends so the inner loops stay short.
            var lo = 0
            var hi = local.count
            while lo < hi, local[lo] == 0 { lo += 1 }
            while hi > lo, local[hi - 1] == 0 { hi -= 1 }
            if lo == hi || total == 0 {
                let nearest = min(inputCount - 1, max(0, Int(center)))
                starts[out] = nearest
                counts[out] = 1
                weights[out * maxCount] = 1
                continue
            }
            starts[out] = first + lo
            counts[out] = min(hi - lo, maxCount)
            for k in 0..<counts[out] {
                weights[out * maxCount + k] = Float(local[lo + k] / total)
            }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.maxCount = maxCount
    }

    /// Runs `body` with unchecked views of the tables (the hot loops index them per pixel).
    func withBuffers<R>(
        _ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>, UnsafeBufferPointer<Float>, Int) -> R
    ) -> R {
        starts.withUnsafeBufferPointer { starts in
            counts.withUnsafeBufferPointer { counts in
                weights.withUnsafeBufferPointer { weights in body(starts, counts, weights, maxCount) }
            }
        }
    }
}

extension ImageBitmap {
    /// This bitmap resampled to `size` with `filter`, in premultiplied alpha so that transparent
    /// pixels never darken their neighbours. Returns `self` when the size is unchanged.
    public func resampled(to size: PixelSize, filter: ResamplingFilter = .lanczos3) throws -> ImageBitmap {
        guard size.isPositive else {
            throw WebImageError.invalidArgument("resample target \(size) must be positive")
        }
        if size == self.size { return self }
        let horizontal = ResamplingContributions(inputCount: width, outputCount: size.width, filter: filter)
        let vertical = ResamplingContributions(inputCount: height, outputCount: size.height, filter: filter)
        let outWidth = size.width
        let srcWidth = width
        let srcHeight = height
        // Opaque images (every JPEG) skip the premultiply and un-premultiply work.
        let opaque = !containsTransparency
        // Pass 1: rows → floats (premultiplied when there is transparency), outWidth × srcHeight.
        var middle = [Float](repeating: 0, count: outWidth * srcHeight * 4)
        pixels.withUnsafeBufferPointer { src in
            middle.withUnsafeMutableBufferPointer { mid in
                horizontal.withBuffers { starts, counts, weights, maxCount in
                    for y in 0..<srcHeight {
                        let srcRow = y * srcWidth * 4
                        let midRow = y * outWidth * 4
                        for x in 0..<outWidth {
                            var r: Float = 0
                            var g: Float = 0
                            var b: Float = 0
                            var a: Float = 0
                            let first = srcRow + starts[x] * 4
                            let wBase = x * maxCount
                            if opaque {
                                for k in 0..<counts[x] {
                                    let w = weights[wBase + k]
                                    let p = first + k * 4
                                    r += Float(src[p]) * w
                                    g += Float(src[p + 1]) * w
                                    b += Float(src[p + 2]) * w
                                }
                                a = 255
                            } else {
                                for k in 0..<counts[x] {
                                    let p = first + k * 4
                                    let wa = weights[wBase + k] * Float(src[p + 3])
                                    r += Float(src[p]) * wa
                                    g += Float(src[p + 1]) * wa
                                    b += Float(src[p + 2]) * wa
                                    a += wa
                                }
                            }
                            let o = midRow + x * 4
                            mid[o] = r
                            mid[o + 1] = g
                            mid[o + 2] = b
                            mid[o + 3] = a
                        }
                    }
                }
            }
        }
        // Pass 2: columns, then (with transparency) un-premultiply into bytes.
        let rowFloats = outWidth * 4
        return middle.withUnsafeBufferPointer { mid in
            vertical.withBuffers { starts, counts, weights, maxCount in
                ImageBitmap(width: outWidth, height: size.height) { dst in
                    let acc = UnsafeMutableBufferPointer<Float>.allocate(capacity: rowFloats)
                    defer { acc.deallocate() }
                    for y in 0..<size.height {
                        acc.update(repeating: 0)
                        let wBase = y * maxCount
                        for k in 0..<counts[y] {
                            let w = weights[wBase + k]
                            let midRow = (starts[y] + k) * rowFloats
                            for i in 0..<rowFloats {
                                acc[i] += mid[midRow + i] * w
                            }
                        }
                        let dstRow = y * rowFloats
                        if opaque {
                            for i in 0..<rowFloats { dst[dstRow + i] = Self.clampByte(acc[i]) }
                            continue
                        }
                        for x in 0..<outWidth {
                            let o = x * 4
                            // Alpha accumulates on 0...255, colour on 0...255² (premultiplied).
                            let a8 = min(max(acc[o + 3], 0), 255).rounded()
                            if a8 <= 0 {
                                dst[dstRow + o] = 0
                                dst[dstRow + o + 1] = 0
                                dst[dstRow + o + 2] = 0
                                dst[dstRow + o + 3] = 0
                                continue
                            }
                            let inverse = 1 / max(acc[o + 3], 1e-6)
                            dst[dstRow + o] = Self.clampByte(acc[o] * inverse)
                            dst[dstRow + o + 1] = Self.clampByte(acc[o + 1] * inverse)
                            dst[dstRow + o + 2] = Self.clampByte(acc[o + 2] * inverse)
                            dst[dstRow + o + 3] = UInt8(a8)
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    static func clampByte(_ value: Float) -> UInt8 {
        let rounded = value.rounded()
        if rounded <= 0 { return 0 }
        if rounded >= 255 { return 255 }
        return UInt8(rounded)
    }
}
