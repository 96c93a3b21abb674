extension ImageBitmap16 {
    /// This bitmap resampled to `size` with `filter`, in premultiplied alpha as
    /// ``ImageBitmap/resampled(to:filter:usesMultipleCores:)`` does, with the same filters and
    /// weights. A plain scalar path in `Float` (rows first, then columns), on one thread: deep
    /// images are the exception, and this keeps their precision rather than chasing speed. Returns
    /// `self` when the size is unchanged. A size that is not positive throws
    /// ``WebImageError/invalidArgument(_:underlying:)``; one above
    /// ``ImageDecodeOptions/defaultMaxPixelCount`` pixels, or an intermediate image above it,
    /// ``WebImageError/imageTooLarge(width:height:limit:)``.
    public func resampled(to size: PixelSize, filter: ResamplingFilter = .lanczos3) throws(WebImageError)
        -> ImageBitmap16
    {
        try TransformSupport.checkResultSize(size, "resample")
        if size == self.size { return self }
        try TransformSupport.checkResultSize(PixelSize(width: size.width, height: height), "resample")
        let horizontal = ResamplingContributions(inputCount: width, outputCount: size.width, filter: filter)
        let vertical = ResamplingContributions(inputCount: height, outputCount: size.height, filter: filter)
        let middle = rowsResampled(to: size.width, horizontal)
        return Self.columnsResampled(middle, width: size.width, height: size.height, vertical)
    }

    /// Pass 1: each row to `outWidth` premultiplied float pixels (alpha in 0…1, colour times it).
    private func rowsResampled(to outWidth: Int, _ horizontal: ResamplingContributions) -> [Float] {
        var middle = [Float](repeating: 0, count: outWidth * height * 4)
        let scale: Float = 1 / 65535
        pixels.withUnsafeBufferPointer { source in
            middle.withUnsafeMutableBufferPointer { mid in
                horizontal.withBuffers { starts, counts, weights, maxCount in
                    for y in 0..<height {
                        for x in 0..<outWidth {
                            var sum: (r: Float, g: Float, b: Float, a: Float) = (0, 0, 0, 0)
                            let first = (y * width + starts[x]) * 4
                            for k in 0..<counts[x] {
                                let p = first + k * 4
                                let alpha = Float(source[p + 3]) * scale
                                let weight = weights[x * maxCount + k]
                                let wa = weight * alpha
                                sum.r += Float(source[p]) * wa
                                sum.g += Float(source[p + 1]) * wa
                                sum.b += Float(source[p + 2]) * wa
                                sum.a += wa
                            }
                            let o = (y * outWidth + x) * 4
                            mid[o] = sum.r
                            mid[o + 1] = sum.g
                            mid[o + 2] = sum.b
                            mid[o + 3] = sum.a
                        }
                    }
                }
            }
        }
        return middle
    }

    /// Pass 2: columns of the premultiplied rows to `height`, un-premultiplied into 16-bit values.
    private static func columnsResampled(
        _ middle: [Float], width: Int, height: Int, _ vertical: ResamplingContributions
    ) -> ImageBitmap16 {
        ImageBitmap16(unchecked: width, height) { destination in
            middle.withUnsafeBufferPointer { mid in
                vertical.withBuffers { starts, counts, weights, maxCount in
                    for y in 0..<height {
                        for x in 0..<width {
                            var sum: (r: Float, g: Float, b: Float, a: Float) = (0, 0, 0, 0)
                            for k in 0..<counts[y] {
                                let p = ((starts[y] + k) * width + x) * 4
                                let weight = weights[y * maxCount + k]
                                sum.r += mid[p] * weight
                                sum.g += mid[p + 1] * weight
                                sum.b += mid[p + 2] * weight
                                sum.a += mid[p + 3] * weight
                            }
                            let o = (y * width + x) * 4
                            let alpha = min(max(sum.a, 0), 1)
                            let unpremultiply: Float = alpha > 0 ? 1 / alpha : 0
                            destination[o] = sixteenBit(sum.r * unpremultiply)
                            destination[o + 1] = sixteenBit(sum.g * unpremultiply)
                            destination[o + 2] = sixteenBit(sum.b * unpremultiply)
                            destination[o + 3] = sixteenBit(alpha * 65535)
                        }
                    }
                }
            }
        }
    }
}

/// `value` rounded to the nearest 16-bit level, clamped to 0…65535; NaN becomes 0.
@inline(__always)
func sixteenBit(_ value: Float) -> UInt16 {
    guard value > 0 else { return 0 }
    return UInt16(clamping: value, rounding: .toNearestOrAwayFromZero)
}
