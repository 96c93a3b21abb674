import Dispatch
import Foundation

/// One extended box filter: weight 1 on the `radius` pixels either side of the centre (and the
/// centre), `edgeWeight` (0..<1) on the next pixel either side, normalised by `scale`.
///
/// The fractional edge lets the box's variance take any value, so `passes` boxes add up to
/// exactly σ² (a plain integer box can only approximate it).
struct ExtendedBox: Equatable {
    let radius: Int
    let edgeWeight: Float
    let scale: Float

    /// The box that, applied `passes` times, has variance `sigma²`.
    init(sigma: Double, passes: Int) {
        let variance = sigma * sigma / Double(passes)
        // The widest plain box (2r + 1 ones, variance r(r + 1) / 3) that does not exceed it.
        let r = max(0, Int(clamping: ((12 * variance + 1).squareRoot() - 1) / 2, rounding: .down))
        let inner = Double(2 * r + 1)
        let outer = Double((r + 1) * (r + 1))
        // Variance of the extended box = (r(r+1)(2r+1)/3 + 2a(r+1)²) / (2r + 1 + 2a); solved for a.
        var edge = inner * (variance - Double(r * (r + 1)) / 3) / (2 * (outer - variance))
        edge = min(max(edge, 0), 1)
        radius = r
        edgeWeight = Float(edge)
        scale = Float(1 / (inner + 2 * edge))
    }

    /// The variance this box has (for tests).
    var variance: Double {
        let r = Double(radius)
        let a = Double(edgeWeight)
        return (r * (r + 1) * (2 * r + 1) / 3 + 2 * a * (r + 1) * (r + 1)) / (2 * r + 1 + 2 * a)
    }
}

extension ImageBitmap {
    /// Box passes per direction: three make a curve within a few percent of a Gaussian.
    static let blurPasses = 3
    /// Pixels from which the blur splits its work across cores.
    static let parallelBlurThreshold = 256 * 1024

    /// This bitmap blurred by a Gaussian of standard deviation `sigma` (> 0) in premultiplied
    /// alpha, with edge pixels extended. `parallel` lets large images use several cores.
    func gaussianBlurred(sigma: Double, parallel: Bool) -> ImageBitmap {
        let box = ExtendedBox(sigma: sigma, passes: Self.blurPasses)
        let opaque = !containsTransparency
        let count = width * height
        let work = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: count)
        defer { work.deallocate() }
        pixels.withUnsafeBufferPointer { src in
            for i in 0..<count {
                let p = SIMD4<Float>(
                    Float(src[4 * i]), Float(src[4 * i + 1]), Float(src[4 * i + 2]), Float(src[4 * i + 3]))
                // Colour premultiplied on 0...255: c · a / 255.
                work[i] = opaque ? p : p * SIMD4(p[3] * (1 / 255), p[3] * (1 / 255), p[3] * (1 / 255), 1)
            }
        }
        let threads = parallel && count >= Self.parallelBlurThreshold ? ThreadPoolExecutor.availableParallelism : 1
        // Rows, then columns. Each strip holds `lanes` lines blurred side by side.
        BoxBlurStrips.run(
            work, lines: height, length: width, lineStride: width, step: 1, box: box, threads: threads)
        BoxBlurStrips.run(
            work, lines: width, length: height, lineStride: 1, step: width, box: box, threads: threads)
        return ImageBitmap(width: width, height: height) { dst in
            for i in 0..<count {
                var v = work[i]
                if opaque {
                    v[3] = 255
                } else if v[3] < 0.5 {
                    // Rounds to alpha 0: fully transparent, colour cleared as everywhere else.
                    v = .zero
                } else {
                    let inverse = 255 / v[3]
                    v *= SIMD4(inverse, inverse, inverse, 1)
                }
                let o = 4 * i
                dst[o] = Self.roundedByte(v[0])
                dst[o + 1] = Self.roundedByte(v[1])
                dst[o + 2] = Self.roundedByte(v[2])
                dst[o + 3] = Self.roundedByte(v[3])
            }
        }
    }

    /// `value` clamped to 0...255 and rounded half up, without a call into libm (which made
    /// the conversion back to bytes a third of the blur's time).
    @inline(__always)
    static func roundedByte(_ value: Float) -> UInt8 {
        UInt8(channel: value)
    }
}

/// Runs the box passes over many lines (rows or columns) of a float image, a strip of
/// neighbouring lines at a time so that every memory access walks along a row.
enum BoxBlurStrips {
    /// Lines processed side by side: 16 pixels of a row are 256 contiguous bytes.
    static let lanes = 16

    /// Blurs `lines` lines of `length` pixels. Line `k` starts at `k * lineStride`; its pixels
    /// are `step` apart.
    static func run(
        _ image: UnsafeMutableBufferPointer<SIMD4<Float>>, lines: Int, length: Int, lineStride: Int, step: Int,
        box: ExtendedBox, threads: Int
    ) {
        let stripCount = (lines + lanes - 1) / lanes
        nonisolated(unsafe) let base = image.baseAddress!
        let pad = box.radius + 1
        let scratchCount = (length + 2 * pad) * lanes
        let blurStrips: @Sendable (Range<Int>) -> Void = { range in
            // 64-byte aligned and zeroed: the passes read 4 lanes at a time as one SIMD16.
            let a = allocateScratch(scratchCount)
            let b = allocateScratch(scratchCount)
            defer {
                a.deallocate()
                b.deallocate()
            }
            for strip in range {
                let first = strip * lanes
                let width = min(lanes, lines - first)
                let origin = base + first * lineStride
                blurStrip(
                    origin, width: width, length: length, lineStride: lineStride, step: step, box: box,
                    scratch: (a, b))
            }
        }
        guard threads > 1, stripCount > 1 else {
            blurStrips(0..<stripCount)
            return
        }
        // A few chunks per thread so that a slow core does not hold the others up.
        let chunks = min(stripCount, threads * 4)
        ThreadPoolExecutor.concurrentPerform(iterations: chunks) { chunk in
            blurStrips(chunk * stripCount / chunks..<(chunk + 1) * stripCount / chunks)
        }
    }

    private static func allocateScratch(_ count: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<SIMD4<Float>>.stride, alignment: 64)
        return raw.initializeMemory(as: SIMD4<Float>.self, repeating: .zero, count: count)
    }

    /// Three extended box passes over `width` (≤ ``lanes``) lines starting at `origin`.
    /// The strip is copied into scratch rows padded with `radius + 1` copies of each end pixel,
    /// blurred there (ping-pong between the two scratch buffers), and copied back.
    private static func blurStrip(
        _ origin: UnsafeMutablePointer<SIMD4<Float>>, width: Int, length: Int, lineStride: Int, step: Int,
        box: ExtendedBox,
        scratch: (UnsafeMutablePointer<SIMD4<Float>>, UnsafeMutablePointer<SIMD4<Float>>)
    ) {
        let r = box.radius
        let pad = r + 1
        let lanes = Self.lanes
        var (source, target) = scratch
        for position in 0..<length {
            let row = source + (pad + position) * lanes
            let pixel = origin + position * step
            for lane in 0..<width { row[lane] = pixel[lane * lineStride] }
        }
        let edge = SIMD16<Float>(repeating: box.edgeWeight)
        let scale = SIMD16<Float>(repeating: box.scale)
        for _ in 0..<ImageBitmap.blurPasses {
            // Extend the end pixels outwards (clamp to edge).
            let firstRow = source + pad * lanes
            let lastRow = source + (pad + length - 1) * lanes
            for p in 0..<pad {
                (source + p * lanes).update(from: firstRow, count: width)
                (source + (pad + length + p) * lanes).update(from: lastRow, count: width)
            }
            // Four lanes (64 bytes) at a time, the running sum in registers. Lanes past `width`
            // hold zeros or stale values and are never copied back.
            let from = UnsafeRawPointer(source)
            let to = UnsafeMutableRawPointer(target)
            let rowBytes = lanes * MemoryLayout<SIMD4<Float>>.stride
            for group in 0..<(width + 3) / 4 {
                let lane = group * MemoryLayout<SIMD16<Float>>.stride
                func load(_ position: Int) -> SIMD16<Float> {
                    from.load(fromByteOffset: position * rowBytes + lane, as: SIMD16<Float>.self)
                }
                // The window of output 0 is padded positions pad - r ... pad + r, i.e. 1 ... 2r + 1.
                var sum = SIMD16<Float>.zero
                for p in 1...(2 * r + 1) { sum += load(p) }
                for position in 0..<length {
                    let centre = pad + position
                    let incoming = load(centre + r + 1)
                    let value = (sum + edge * (load(centre - r - 1) + incoming)) * scale
                    to.storeBytes(of: value, toByteOffset: centre * rowBytes + lane, as: SIMD16<Float>.self)
                    sum += incoming - load(centre - r)
                }
            }
            swap(&source, &target)
        }
        for position in 0..<length {
            let row = source + (pad + position) * lanes
            let pixel = origin + position * step
            for lane in 0..<width { pixel[lane * lineStride] = row[lane] }
        }
    }
}
