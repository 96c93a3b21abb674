#if Server
    import WebImage

    /// How different an encoded result looks from the pixels it was made of: the structural
    /// dissimilarity (DSSIM) behind autoquality's `dssim` method.
    ///
    /// DSSIM here is `1 / SSIM − 1`, the scale of Kornel Lesiński's `dssim` tool (0 for identical
    /// images, growing without bound as they differ; imgproxy's `IMGPROXY_AUTOQUALITY_TARGET` of
    /// 0.02 is an SSIM of about 0.98). SSIM is Wang, Bovik, Sheikh and Simoncelli's (2004), with
    /// their constants `C1 = (0.01·255)²` and `C2 = (0.03·255)²`, averaged over 8×8 windows placed
    /// every 4 pixels, on luma (Rec. 601 weights on the sRGB values) after compositing both images
    /// onto the background the result is flattened onto, at five scales (``scaleWeights``). Images
    /// above ``maxPixels`` are first reduced by box averaging by the same whole factor, as Wang et
    /// al. advise for large images. The numbers are this measure's own: close to, not equal to,
    /// the `dssim` tool's (which works in Lab colour) or imgproxy's.
    enum Dissimilarity {
        /// The most pixels compared; larger images are averaged down first.
        static let maxPixels = 1_000_000
        /// The side of a window, and the step between windows.
        static let window = 8
        static let stride = 4

        /// The DSSIM of `candidate` against `reference`; nil when their sizes differ or are empty.
        static func dssim(_ reference: ImageBitmap, _ candidate: ImageBitmap, background: RGBA8 = .white) -> Double? {
            guard reference.width == candidate.width, reference.height == candidate.height,
                reference.width > 0, reference.height > 0
            else { return nil }
            let factor = reduction(width: reference.width, height: reference.height)
            var x = LumaPlane(reference, background: background, factor: factor)
            var y = LumaPlane(candidate, background: background, factor: factor)
            // Each scale's mean SSIM, weighted; a scale smaller than a window is left out.
            var weighted = 0.0
            var weights = 0.0
            for weight in scaleWeights {
                weighted += weight * meanSSIM(x, y)
                weights += weight
                guard x.width >= 2 * window, x.height >= 2 * window else { break }
                x = x.halved()
                y = y.halved()
            }
            let ssim = weighted / weights
            guard ssim > 0 else { return .infinity }
            return max(0, 1 / ssim - 1)
        }

        /// The weights of the scales compared, full size first, each half the size of the one
        /// before: Wang, Simoncelli and Bovik's multi-scale SSIM weights (2003), here averaging the
        /// scales' SSIMs rather than multiplying their terms, so that grain finer than the eye
        /// resolves weighs less than the structure every scale shows.
        static let scaleWeights = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333]

        /// The smallest whole factor that brings the pixels down to ``maxPixels`` (never below one
        /// pixel a side).
        static func reduction(width: Int, height: Int) -> Int {
            var factor = 1
            while factor < min(width, height), (width / factor) * (height / factor) > maxPixels { factor += 1 }
            return factor
        }

        /// Wang et al.'s SSIM, the mean over the windows.
        static func meanSSIM(_ x: LumaPlane, _ y: LumaPlane) -> Double {
            let c1 = (0.01 * 255.0) * (0.01 * 255.0)
            let c2 = (0.03 * 255.0) * (0.03 * 255.0)
            let side = min(window, x.width, x.height)
            let xs = positions(x.width, side: side)
            let ys = positions(x.height, side: side)
            let count = Double(side * side)
            var total = 0.0
            x.values.withUnsafeBufferPointer { a in
                y.values.withUnsafeBufferPointer { b in
                    for top in ys {
                        for left in xs {
                            var sumA = 0.0
                            var sumB = 0.0
                            var sumAA = 0.0
                            var sumBB = 0.0
                            var sumAB = 0.0
                            for row in top..<(top + side) {
                                var index = row * x.width + left
                                for _ in 0..<side {
                                    let p = Double(a[index])
                                    let q = Double(b[index])
                                    sumA += p
                                    sumB += q
                                    sumAA += p * p
                                    sumBB += q * q
                                    sumAB += p * q
                                    index += 1
                                }
                            }
                            let meanA = sumA / count
                            let meanB = sumB / count
                            let varianceA = max(0, sumAA / count - meanA * meanA)
                            let varianceB = max(0, sumBB / count - meanB * meanB)
                            let covariance = sumAB / count - meanA * meanB
                            total +=
                                ((2 * meanA * meanB + c1) * (2 * covariance + c2))
                                / ((meanA * meanA + meanB * meanB + c1) * (varianceA + varianceB + c2))
                        }
                    }
                }
            }
            return total / Double(xs.count * ys.count)
        }

        /// Where windows of `side` start along a length: every ``stride``, and the last one flush
        /// with the end so that every pixel is covered.
        static func positions(_ length: Int, side: Int) -> [Int] {
            let last = length - side
            var starts = Array(Swift.stride(from: 0, through: last, by: stride))
            if starts.last != last { starts.append(last) }
            return starts
        }
    }

    /// One luma value per pixel (0…255), composited onto a background, box-averaged by `factor`.
    struct LumaPlane {
        let width: Int
        let height: Int
        let values: [Float]

        private init(width: Int, height: Int, values: [Float]) {
            self.width = width
            self.height = height
            self.values = values
        }

        /// Half the size each way, each value the mean of a 2×2 block (an odd last row or column dropped).
        func halved() -> LumaPlane {
            let half = (width: max(1, width / 2), height: max(1, height / 2))
            var out = [Float](repeating: 0, count: half.width * half.height)
            for y in 0..<half.height {
                for x in 0..<half.width {
                    let i = (2 * y) * width + 2 * x
                    let right = min(1, width - 1 - 2 * x)
                    let below = min(1, height - 1 - 2 * y) * width
                    out[y * half.width + x] =
                        (values[i] + values[i + right] + values[i + below] + values[i + below + right]) / 4
                }
            }
            return LumaPlane(width: half.width, height: half.height, values: out)
        }

        init(_ bitmap: ImageBitmap, background: RGBA8, factor: Int) {
            let step = max(1, factor)
            width = max(1, bitmap.width / step)
            height = max(1, bitmap.height / step)
            let bg = (Float(background.r), Float(background.g), Float(background.b))
            var sums = [Float](repeating: 0, count: width * height)
            let sourceWidth = bitmap.width
            let (outWidth, outHeight) = (width, height)
            bitmap.pixels.withUnsafeBufferPointer { rgba in
                sums.withUnsafeMutableBufferPointer { out in
                    for y in 0..<min(bitmap.height, outHeight * step) {
                        let outRow = (y / step) * outWidth
                        var i = y * sourceWidth * 4
                        for x in 0..<min(sourceWidth, outWidth * step) {
                            let alpha = Float(rgba[i + 3]) / 255
                            let r = Float(rgba[i]) * alpha + bg.0 * (1 - alpha)
                            let g = Float(rgba[i + 1]) * alpha + bg.1 * (1 - alpha)
                            let b = Float(rgba[i + 2]) * alpha + bg.2 * (1 - alpha)
                            out[outRow + x / step] += 0.299 * r + 0.587 * g + 0.114 * b
                            i += 4
                        }
                    }
                }
            }
            let area = Float(step * step)
            values = step == 1 ? sums : sums.map { $0 / area }
        }
    }
#endif
