/// A frame reduced to at most 256 palette indices for GIF encoding.
struct GIFQuantizedFrame {
    /// Opaque palette colours as R, G, B bytes; the transparent entry (if any) comes after them.
    var colors: [(r: UInt8, g: UInt8, b: UInt8)]
    /// The index used for pixels with alpha below 128, or nil when there are none.
    var transparentIndex: Int?
    /// One palette index per pixel, rows top to bottom.
    var indices: [UInt8]

    /// Entries in the palette, including the transparent one.
    var paletteCount: Int { colors.count + (transparentIndex == nil ? 0 : 1) }
}

/// Builds a frame's palette: the exact colours when there are few enough (so simple images
/// round-trip unchanged), otherwise a median cut over a 5-bit-per-channel histogram of the
/// opaque pixels. Pixels with alpha below 128 share one transparent index.
enum GIFQuantizer {
    static func quantize(_ bitmap: ImageBitmap) -> GIFQuantizedFrame {
        exactPalette(bitmap) ?? medianCut(bitmap)
    }

    /// The frame's own colours, or nil when there are more than a palette holds.
    static func exactPalette(_ bitmap: ImageBitmap) -> GIFQuantizedFrame? {
        var lookup: [UInt32: UInt8] = [:]
        var colors: [(r: UInt8, g: UInt8, b: UInt8)] = []
        var hasTransparency = false
        var indices = [UInt8](repeating: 0, count: bitmap.width * bitmap.height)
        var transparentPixels: [Int] = []
        // Neighbouring pixels usually share a colour: skip the dictionary for repeats.
        var lastKey = UInt32.max
        var lastIndex: UInt8 = 0
        let complete = bitmap.pixels.withUnsafeBufferPointer { pixels -> Bool in
            for pixel in 0..<indices.count {
                let base = pixel * 4
                if pixels[base + 3] < 128 {
                    hasTransparency = true
                    transparentPixels.append(pixel)
                    continue
                }
                let key = UInt32(pixels[base]) << 16 | UInt32(pixels[base + 1]) << 8 | UInt32(pixels[base + 2])
                if key == lastKey {
                    indices[pixel] = lastIndex
                } else if let index = lookup[key] {
                    lastKey = key
                    lastIndex = index
                    indices[pixel] = index
                } else {
                    guard colors.count < 256 else { return false }
                    lookup[key] = UInt8(colors.count)
                    indices[pixel] = UInt8(colors.count)
                    colors.append((pixels[base], pixels[base + 1], pixels[base + 2]))
                }
            }
            return true
        }
        guard complete, !(hasTransparency && colors.count > 255) else { return nil }
        var transparentIndex: Int?
        if hasTransparency {
            transparentIndex = colors.count
            for pixel in transparentPixels { indices[pixel] = UInt8(colors.count) }
        }
        return GIFQuantizedFrame(colors: colors, transparentIndex: transparentIndex, indices: indices)
    }

    private struct Box {
        var buckets: [Int]
        var pixelCount: Int
    }

    /// Median cut over histogram buckets; each bucket maps to the box that holds it.
    static func medianCut(_ bitmap: ImageBitmap) -> GIFQuantizedFrame {
        let bucketCount = 1 << 15
        var counts = [Int](repeating: 0, count: bucketCount)
        var sums = [Int](repeating: 0, count: bucketCount * 3)
        var hasTransparency = false
        let pixelCount = bitmap.width * bitmap.height
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for pixel in 0..<pixelCount {
                let base = pixel * 4
                if pixels[base + 3] < 128 {
                    hasTransparency = true
                    continue
                }
                let key = bucket(pixels[base], pixels[base + 1], pixels[base + 2])
                counts[key] += 1
                sums[key * 3] += Int(pixels[base])
                sums[key * 3 + 1] += Int(pixels[base + 1])
                sums[key * 3 + 2] += Int(pixels[base + 2])
            }
        }
        let maxColors = hasTransparency ? 255 : 256
        let used = (0..<bucketCount).filter { counts[$0] > 0 }
        var boxes = used.isEmpty ? [] : [Box(buckets: used, pixelCount: used.reduce(0) { $0 + counts[$1] })]
        while boxes.count < maxColors {
            guard
                let target = boxes.indices.filter({ boxes[$0].buckets.count > 1 })
                    .max(by: { boxes[$0].pixelCount < boxes[$1].pixelCount })
            else { break }
            let (low, high) = split(boxes[target], counts: counts)
            boxes[target] = low
            boxes.append(high)
        }
        var bucketIndex = [UInt8](repeating: 0, count: bucketCount)
        var colors: [(r: UInt8, g: UInt8, b: UInt8)] = []
        for (index, box) in boxes.enumerated() {
            var total = (0, 0, 0)
            for key in box.buckets {
                bucketIndex[key] = UInt8(index)
                total.0 += sums[key * 3]
                total.1 += sums[key * 3 + 1]
                total.2 += sums[key * 3 + 2]
            }
            let n = max(box.pixelCount, 1)
            colors.append((UInt8((total.0 + n / 2) / n), UInt8((total.1 + n / 2) / n), UInt8((total.2 + n / 2) / n)))
        }
        let transparentIndex = hasTransparency ? colors.count : nil
        var indices = [UInt8](repeating: 0, count: pixelCount)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for pixel in 0..<pixelCount {
                let base = pixel * 4
                if pixels[base + 3] < 128 {
                    indices[pixel] = UInt8(transparentIndex ?? 0)
                } else {
                    indices[pixel] = bucketIndex[bucket(pixels[base], pixels[base + 1], pixels[base + 2])]
                }
            }
        }
        return GIFQuantizedFrame(colors: colors, transparentIndex: transparentIndex, indices: indices)
    }

    private static func bucket(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
    }

    /// Splits a box along its widest channel at the pixel-weighted median.
    private static func split(_ box: Box, counts: [Int]) -> (Box, Box) {
        func channel(_ key: Int, _ c: Int) -> Int { (key >> (10 - 5 * c)) & 31 }
        let extents = (0..<3).map { c in
            let values = box.buckets.map { channel($0, c) }
            return (values.max() ?? 0) - (values.min() ?? 0)
        }
        let axis = extents.indices.max { extents[$0] < extents[$1] } ?? 0
        let sorted = box.buckets.sorted { channel($0, axis) < channel($1, axis) }
        var seen = 0
        var cut = 1
        for (i, key) in sorted.enumerated() where i < sorted.count - 1 {
            seen += counts[key]
            cut = i + 1
            if seen * 2 >= box.pixelCount { break }
        }
        let low = Array(sorted[..<cut])
        let high = Array(sorted[cut...])
        return (
            Box(buckets: low, pixelCount: low.reduce(0) { $0 + counts[$1] }),
            Box(buckets: high, pixelCount: high.reduce(0) { $0 + counts[$1] })
        )
    }
}
