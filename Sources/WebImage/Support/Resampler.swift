import Foundation

/// A separable resampling filter.
///
/// Every filter but ``nearest`` is widened by the reduction factor when shrinking, so that each
/// output pixel sees all the input it covers (as libvips' `reduce` and Pillow do).
public enum ResamplingFilter: Sendable {
    /// Area average: each output pixel is the mean of the input it covers.
    case box
    /// Linear (tent) interpolation, widened by the reduction factor when shrinking.
    case triangle
    /// Lanczos with 3 lobes: the sharpest, as Pillow's LANCZOS and vips' default.
    case lanczos3
    /// Lanczos with 2 lobes: a little softer than ``lanczos3``, with less ringing.
    case lanczos2
    /// Catmull-Rom cubic (B = 0, C = ½), libvips' `cubic` kernel.
    case cubic
    /// Nearest neighbour: each output pixel copies the one input pixel its centre falls in (on a
    /// boundary, the pixel after it), never widened, so every output colour is a source colour.
    case nearest

    var support: Double {
        switch self {
        case .box, .nearest: 0.5
        case .triangle: 1
        case .lanczos2, .cubic: 2
        case .lanczos3: 3
        }
    }

    func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .box, .nearest: return x < 0.5 ? 1 : (x == 0.5 ? 0.5 : 0)
        case .triangle: return x < 1 ? 1 - x : 0
        case .lanczos2: return Self.lanczos(x, lobes: 2)
        case .lanczos3: return Self.lanczos(x, lobes: 3)
        case .cubic:
            if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
            if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
            return 0
        }
    }

    /// `sinc(x)·sinc(x/lobes)` within `lobes`, else 0.
    private static func lanczos(_ x: Double, lobes: Double) -> Double {
        if x < 1e-8 { return 1 }
        if x >= lobes { return 0 }
        let px = Double.pi * x
        return lobes * sin(px) * sin(px / lobes) / (px * px)
    }
}

/// For each output coordinate: the first input index it reads and the normalised weights.
struct ResamplingContributions: Sendable {
    let starts: [Int]
    let counts: [Int]
    /// `outputCount * maxCount` weights; row `i` holds `counts[i]` used values.
    let weights: [Float]
    let maxCount: Int

    init(inputCount: Int, outputCount: Int, filter: ResamplingFilter) {
        let scale = Double(inputCount) / Double(outputCount)
        if filter == .nearest {
            // One tap each: the input pixel the output pixel's centre falls in.
            self.starts = (0..<outputCount).map { out in
                min(inputCount - 1, Int(clamping: (Double(out) + 0.5) * scale, rounding: .down))
            }
            self.counts = [Int](repeating: 1, count: outputCount)
            self.weights = [Float](repeating: 1, count: outputCount)
            self.maxCount = 1
            return
        }
        let filterScale = max(scale, 1)
        let radius = filter.support * filterScale
        let maxCount = Int(clamping: radius, rounding: .up) * 2 + 1
        var starts = [Int](repeating: 0, count: outputCount)
        var counts = [Int](repeating: 0, count: outputCount)
        var weights = [Float](repeating: 0, count: outputCount * maxCount)
        for out in 0..<outputCount {
            let center = (Double(out) + 0.5) * scale
            let first = max(0, Int(clamping: center - radius, rounding: .down))
            let last = min(inputCount, Int(clamping: center + radius, rounding: .up))
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
                let nearest = min(inputCount - 1, max(0, Int(clamping: center)))
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
    /// Source pixels from which resampling splits its rows across cores.
    static let parallelResampleThreshold = 1 << 20

    /// This bitmap resampled to `size` with `filter`, in premultiplied alpha so that transparent
    /// pixels never darken their neighbours. Returns `self` when the size is unchanged.
    ///
    /// When the height shrinks or stays (every thumbnail), each output row is made in one go:
    /// the input rows it needs are summed (vectorised along the row; the premultiply is fused
    /// into this pass), then that one row is resampled horizontally, so no intermediate image
    /// exists. With `usesMultipleCores` (the default) a source of a megapixel or more is split
    /// into bands of output rows run on those of the library's CPU threads that stand idle (under
    /// load, one thread); the pixels are the same either way. A size that is not positive throws
    /// ``WebImageError/invalidArgument(_:underlying:)``, one above
    /// ``ImageDecodeOptions/defaultMaxPixelCount`` pixels ``WebImageError/imageTooLarge(width:height:limit:)``.
    public func resampled(
        to size: PixelSize, filter: ResamplingFilter = .lanczos3, usesMultipleCores: Bool = true
    ) throws(WebImageError) -> ImageBitmap {
        try TransformSupport.checkResultSize(size, "resample")
        if size == self.size { return self }
        let horizontal = ResamplingContributions(inputCount: width, outputCount: size.width, filter: filter)
        let vertical = ResamplingContributions(inputCount: height, outputCount: size.height, filter: filter)
        // Opaque images (every JPEG) skip the premultiply and un-premultiply work.
        let opaque = !containsTransparency
        guard size.height <= height else {
            return resampledHorizontalFirst(to: size, horizontal: horizontal, vertical: vertical, opaque: opaque)
        }
        let threads =
            usesMultipleCores && self.size.pixelCount >= Self.parallelResampleThreshold
            ? ThreadPoolExecutor.availableParallelism : 1
        return resampledVerticalFirst(
            to: size, horizontal: horizontal, vertical: vertical, opaque: opaque, threads: threads)
    }

    @inline(__always)
    static func clampByte(_ value: Float) -> UInt8 {
        UInt8(channel: value)
    }
}
