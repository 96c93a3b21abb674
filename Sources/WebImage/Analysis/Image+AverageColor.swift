extension Image {
    /// The mean of every channel over the image's pixels, rounded: imgproxy's `average`.
    ///
    /// With `ignoringTransparent` (the default, as imgproxy's), fully transparent pixels are left
    /// out, so the colour they hide and their zero alpha do not count; an image with no other
    /// pixel gives ``RGBA8/clear``. Without it every pixel counts as stored. The means are of
    /// straight (not premultiplied) values. Every pixel is read, and nothing is allocated; the
    /// orientation does not matter to a mean.
    public func averageColor(ignoringTransparent: Bool = true) -> RGBA8 {
        var sums = SIMD4<UInt64>()
        var count: UInt64 = 0
        bitmap.pixels.withUnsafeBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                if ignoringTransparent && p[i + 3] == 0 { continue }
                sums &+= SIMD4(UInt64(p[i]), UInt64(p[i + 1]), UInt64(p[i + 2]), UInt64(p[i + 3]))
                count += 1
            }
        }
        guard count > 0 else { return .clear }
        let means = (sums &+ count / 2) / count
        return RGBA8(
            r: UInt8(clamping: means.x), g: UInt8(clamping: means.y), b: UInt8(clamping: means.z),
            a: UInt8(clamping: means.w))
    }
}
