import Foundation

extension Image {
    /// The image's perceptual hash, as Python's `imagehash.phash` defines it (hash size 8,
    /// high-frequency factor 4): the image in gray, resized to 32×32 with Lanczos, its 2-D
    /// cosine transform, and one bit for each of the 8×8 lowest frequencies (the constant
    /// included) that is above their median. Use it to find duplicate and near-duplicate images
    /// (``PerceptualHash/hammingDistance(to:)``), as imgproxy's `perceptual_hash` does.
    ///
    /// The image is hashed as shown (``orientation`` applied). Gray is ITU-R 601 luma, as
    /// Pillow's `L` mode. Translucent pixels are composited over white first, so the colour a
    /// transparent pixel hides never counts (`imagehash` drops alpha and would count it);
    /// images without transparency hash as `imagehash` hashes them, within a few bits
    /// (the resamplers round differently).
    public func perceptualHash() -> PerceptualHash {
        let side = 32
        let bitmap = AnalysisInput.upright(self, resizedTo: PixelSize(width: side, height: side), filter: .lanczos3)
        let gray = PerceptualHashing.grayOverWhite(bitmap)
        let frequencies = PerceptualHashing.lowFrequencies(gray, side: side, count: 8)
        let sorted = frequencies.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        var value: UInt64 = 0
        for frequency in frequencies {
            value = value << 1 | (frequency > median ? 1 : 0)
        }
        return PerceptualHash(value: value)
    }
}

/// The steps of the perceptual hash.
enum PerceptualHashing {
    /// Each pixel's luma on 0...255, as Pillow's RGB-to-L conversion rounds it, over white.
    static func grayOverWhite(_ bitmap: ImageBitmap) -> [Double] {
        var gray: [Double] = []
        gray.reserveCapacity(bitmap.width * bitmap.height)
        bitmap.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let alpha = Int(p[i + 3])
                let over = { (channel: UInt8) in (Int(channel) * alpha + 255 * (255 - alpha) + 127) / 255 }
                let luma = (over(p[i]) * 19595 + over(p[i + 1]) * 38470 + over(p[i + 2]) * 7471 + 0x8000) >> 16
                gray.append(Double(luma))
            }
        }
        return gray
    }

    /// The `count × count` lowest frequencies of the unnormalised DCT-II of a `side × side`
    /// image, vertical frequency major. (The transform's scale does not matter: only their order
    /// against the median does.)
    static func lowFrequencies(_ pixels: [Double], side: Int, count: Int) -> [Double] {
        let basis = (0..<count).map { k in
            (0..<side).map { n in cos(Double.pi * Double(k) * Double(2 * n + 1) / Double(2 * side)) }
        }
        // Along the columns first: rows[v][x].
        var rows = [[Double]](repeating: [Double](repeating: 0, count: side), count: count)
        for v in 0..<count {
            for y in 0..<side {
                let weight = basis[v][y]
                for x in 0..<side { rows[v][x] += pixels[y * side + x] * weight }
            }
        }
        var result: [Double] = []
        result.reserveCapacity(count * count)
        for v in 0..<count {
            for u in 0..<count {
                var sum = 0.0
                for x in 0..<side { sum += rows[v][x] * basis[u][x] }
                result.append(sum)
            }
        }
        return result
    }
}
