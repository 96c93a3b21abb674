/// Frame-to-frame geometry for the encoder: opaque frames after an opaque frame are written
/// as the rectangle that changed, on top of the kept previous frame.
enum GIFFrameDiff {
    /// Whether any pixel has alpha below 128 (those become the transparent index).
    static func hasTransparentPixels(_ bitmap: ImageBitmap) -> Bool {
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            var i = 3
            while i < pixels.count {
                if pixels[i] < 128 { return true }
                i += 4
            }
            return false
        }
    }

    /// The smallest rectangle holding every pixel that differs between two bitmaps of one
    /// size, or nil when they are equal.
    static func changedRect(from old: ImageBitmap, to new: ImageBitmap) -> PixelRect? {
        precondition(old.size == new.size, "frames must share the canvas size")
        let width = new.width
        var minX = width
        var maxX = -1
        var minY = -1
        var maxY = -1
        old.pixels.withUnsafeBytes { oldRaw in
            new.pixels.withUnsafeBytes { newRaw in
                let a = oldRaw.bindMemory(to: UInt32.self)
                let b = newRaw.bindMemory(to: UInt32.self)
                for y in 0..<new.height {
                    let row = y * width
                    var first = -1
                    var last = -1
                    for x in 0..<width where a[row + x] != b[row + x] {
                        if first < 0 { first = x }
                        last = x
                    }
                    guard first >= 0 else { continue }
                    if minY < 0 { minY = y }
                    maxY = y
                    minX = min(minX, first)
                    maxX = max(maxX, last)
                }
            }
        }
        guard minY >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}

extension GIFFrameDiff {
    /// `bitmap`'s pixels in `rect`, with those equal to `previous` made transparent so they
    /// show the kept frame beneath and compress as runs of the transparent index.
    static func maskingUnchanged(_ bitmap: ImageBitmap, previous: ImageBitmap, in rect: PixelRect) -> ImageBitmap {
        bitmap.pixels.withUnsafeBytes { newRaw in
            previous.pixels.withUnsafeBytes { oldRaw in
                let new = newRaw.bindMemory(to: UInt32.self)
                let old = oldRaw.bindMemory(to: UInt32.self)
                return ImageBitmap(width: rect.width, height: rect.height) { target in
                    let words = UnsafeMutableRawBufferPointer(target).bindMemory(to: UInt32.self)
                    for row in 0..<rect.height {
                        let from = (rect.y + row) * bitmap.width + rect.x
                        let to = row * rect.width
                        for x in 0..<rect.width {
                            let pixel = new[from + x]
                            words[to + x] = pixel == old[from + x] ? 0 : pixel
                        }
                    }
                }
            }
        }
    }
}
