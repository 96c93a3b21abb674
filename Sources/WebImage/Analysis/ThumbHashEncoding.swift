import Foundation

/// The ThumbHash format: the image in LPQA (luminance, yellow–blue, red–green, alpha), each
/// channel's low cosine frequencies quantised to 4 bits, behind a 5- or 6-byte header.
enum ThumbHashEncoding {
    /// One channel's cosine factors: the constant, the others scaled to 0...1, and their scale.
    struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0
    }

    /// The hash of `bitmap`, which must fit 100×100 (larger works, only slower).
    static func hash(_ bitmap: ImageBitmap) -> [UInt8] {
        let w = bitmap.width
        let h = bitmap.height
        let count = w * h
        // The average colour, weighted by alpha, over which translucent pixels are composited.
        var average = SIMD3<Double>()
        var coverage = 0.0
        bitmap.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let alpha = Double(p[i + 3]) / 255
                average += SIMD3(Double(p[i]), Double(p[i + 1]), Double(p[i + 2])) * (alpha / 255)
                coverage += alpha
            }
        }
        if coverage > 0 { average /= coverage }
        let hasAlpha = coverage < Double(count)
        let lumaLimit = hasAlpha ? 5.0 : 7.0  // fewer luminance factors leave room for alpha
        let longest = Double(max(w, h))
        let lx = max(1, Int(clamping: lumaLimit * Double(w) / longest, rounding: .toNearestOrAwayFromZero))
        let ly = max(1, Int(clamping: lumaLimit * Double(h) / longest, rounding: .toNearestOrAwayFromZero))

        var l = [Double](repeating: 0, count: count)
        var p = l
        var q = l
        var a = l
        bitmap.pixels.withUnsafeBufferPointer { px in
            for i in 0..<count {
                let alpha = Double(px[4 * i + 3]) / 255
                let colour = SIMD3(Double(px[4 * i]), Double(px[4 * i + 1]), Double(px[4 * i + 2]))
                let c = average * (1 - alpha) + colour * (alpha / 255)
                l[i] = (c.x + c.y + c.z) / 3
                p[i] = (c.x + c.y) / 2 - c.z
                q[i] = c.x - c.y
                a[i] = alpha
            }
        }
        let lChannel = encode(l, w, h, nx: max(3, lx), ny: max(3, ly))
        let pChannel = encode(p, w, h, nx: 3, ny: 3)
        let qChannel = encode(q, w, h, nx: 3, ny: 3)
        let aChannel = hasAlpha ? encode(a, w, h, nx: 5, ny: 5) : nil

        let isLandscape = w > h
        let header24 =
            rounded(63 * lChannel.dc, bits: 6) | rounded(31.5 + 31.5 * pChannel.dc, bits: 6) << 6
            | rounded(31.5 + 31.5 * qChannel.dc, bits: 6) << 12 | rounded(31 * lChannel.scale, bits: 5) << 18
            | (hasAlpha ? 1 << 23 : 0)
        let header16 =
            (isLandscape ? ly : lx) & 7 | rounded(63 * pChannel.scale, bits: 6) << 3
            | rounded(63 * qChannel.scale, bits: 6) << 9 | (isLandscape ? 1 << 15 : 0)
        var hash: [UInt8] = [header24, header24 >> 8, header24 >> 16, header16, header16 >> 8].map {
            UInt8(truncatingIfNeeded: $0)
        }
        if let aChannel {
            hash.append(UInt8(rounded(15 * aChannel.dc, bits: 4) | rounded(15 * aChannel.scale, bits: 4) << 4))
        }
        // The AC factors, two to a byte, low nibble first.
        let start = hash.count
        var index = 0
        for channel in [lChannel, pChannel, qChannel] + (aChannel.map { [$0] } ?? []) {
            for factor in channel.ac {
                if index & 1 == 0 { hash.append(0) }
                hash[start + (index >> 1)] |= UInt8(rounded(15 * factor, bits: 4) << ((index & 1) << 2))
                index += 1
            }
        }
        return hash
    }

    /// The cosine factors of `channel` (`w × h` values) for `cx`, `cy` with
    /// `cx·ny < nx·(ny − cy)`: a triangle of low frequencies, the order the format stores.
    static func encode(_ channel: [Double], _ w: Int, _ h: Int, nx: Int, ny: Int) -> Channel {
        var result = Channel()
        var fx = [Double](repeating: 0, count: w)
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                var f = 0.0
                for y in 0..<h {
                    let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                    for x in 0..<w { f += channel[x + y * w] * fx[x] * fy }
                }
                f /= Double(w * h)
                if cx > 0 || cy > 0 {
                    result.ac.append(f)
                    result.scale = max(result.scale, abs(f))
                } else {
                    result.dc = f
                }
                cx += 1
            }
        }
        if result.scale > 0 {
            result.ac = result.ac.map { 0.5 + 0.5 / result.scale * $0 }
        }
        return result
    }

    /// `value` rounded half up, kept to the field's `bits` (the inputs are in range already;
    /// this only keeps a rounding slip from spilling into the next field).
    private static func rounded(_ value: Double, bits: Int) -> Int {
        let whole = Int(clamping: value, rounding: .toNearestOrAwayFromZero)
        return min(max(whole, 0), (1 << bits) - 1)
    }
}
