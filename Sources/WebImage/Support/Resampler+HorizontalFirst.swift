import Foundation

extension ImageBitmap {
    /// Rows first into a float image of `size.width × height`, then columns: the order for a
    /// vertical enlargement, where summing input rows first would repeat work per output row.
    func resampledHorizontalFirst(
        to size: PixelSize, horizontal: ResamplingContributions, vertical: ResamplingContributions, opaque: Bool
    ) -> ImageBitmap {
        let outWidth = size.width
        let srcWidth = width
        let srcHeight = height
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
                            dst[dstRow + o + 3] = UInt8(truncatingChannel: a8)
                        }
                    }
                }
            }
        }
    }

}
